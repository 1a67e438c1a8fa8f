import { COLOUR_RULES, seriousViolations } from './axe';
import { expect, test } from './fixtures';
import {
  addParameter,
  expectState,
  fillBasics,
  submitAndOpen,
  submitViaApi,
  waitForStateViaApi,
} from './helpers';

test('any job can be submitted again from what it ran; a sensitive value is typed again', async ({
  page,
  extensions,
}) => {
  // Submitted by a script, not by this browser: nothing of it is in the browser's storage.
  const id = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    container_cmd_parameter: { script: 'test -n "$TOKEN" && echo "plain=$PLAIN"' },
    container_env: {
      TOKEN: { value: 'first-secret', sensitive: true },
      PLAIN: { value: 'kept' },
    },
  });
  await waitForStateViaApi(page, id, 'completed');
  await page.goto(`/jobs/${id}`);
  await expectState(page, 'completed');
  const again = page.getByRole('link', { name: 'Submit again' });
  if (!extensions) {
    // A service that does not describe executions: nothing to submit again from.
    await expect(again).toHaveCount(0);
    return;
  }
  await again.click();
  await expect(page).toHaveURL(new RegExp(`/submit\\?from=${id}$`));
  await expect(page.getByRole('combobox', { name: 'Job definition' })).toHaveValue('demo::shell:1');
  await expect(page.getByRole('combobox', { name: 'Job queue' })).toHaveValue('demo::default');
  // The command as it ran, its Param:: word substituted.
  await expect(page.getByRole('combobox', { name: 'Command word 3' })).toHaveValue(
    'test -n "$TOKEN" && echo "plain=$PLAIN"',
  );
  await expect(page.getByText('Submitting again')).toBeVisible();
  const names = page.getByRole('textbox', { name: /^Variable \d+ name$/ });
  const count = await names.count();
  const variables: Record<string, number> = {};
  for (let i = 0; i < count; i += 1) variables[await names.nth(i).inputValue()] = i + 1;
  const token = variables.TOKEN!;
  await expect(page.getByRole('switch', { name: `Variable ${token} is sensitive` })).toBeChecked();
  await expect(page.getByLabel(`Variable ${token} value`)).toHaveValue('');
  await expect(page.getByLabel(`Variable ${variables.PLAIN!} value`)).toHaveValue('kept');
  expect(await page.content()).not.toContain('first-secret');
  await page.getByLabel(`Variable ${token} value`).fill('second-secret');
  await submitAndOpen(page);
  await expectState(page, 'completed');
  await expect(page.getByTestId('log-line')).toHaveText(['plain=kept']);
});

test('Submit again never sends a blanked secret: the form refuses it until it is typed again', async ({
  page,
}) => {
  await fillBasics(page, 'demo::shell:1');
  await addParameter(page, 'script', 'test -n "$TOKEN"');
  await page.getByRole('button', { name: 'Add variable' }).click();
  await page.getByRole('textbox', { name: 'Variable 1 name' }).fill('TOKEN');
  await page.getByRole('switch', { name: 'Variable 1 is sensitive' }).check({ force: true });
  await page.getByLabel('Variable 1 value').fill('first-secret');
  await submitAndOpen(page);
  await expectState(page, 'completed');

  // Submitted from this browser: "Submit again" on every service, the spec-only one too.
  await page.getByRole('link', { name: 'Submit again' }).click();
  const value = page.getByLabel('Variable 1 value');
  await expect(value).toHaveValue('');
  // The body shown is the body that would be sent: no `<redacted>` standing for an empty value.
  const preview = page.getByTestId('payload-preview');
  await expect(preview).toContainText('"TOKEN"');
  await expect(preview).not.toContainText('<redacted>');

  const submits: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/v1/client/job'))
      submits.push(request.url());
  });
  await page.getByRole('button', { name: 'Submit job' }).click();
  await expect(
    page.getByText(
      'is empty: type the secret again (sensitive values are never kept), or remove the variable',
    ),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/submit\?from=/);
  expect(submits).toEqual([]);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    const rules = colorScheme === 'dark' ? COLOUR_RULES : undefined;
    expect(await seriousViolations(page, 'form', rules), colorScheme).toEqual([]);
  }

  await value.fill('second-secret');
  await expect(preview).toContainText('<redacted>');
  await submitAndOpen(page);
  // `test -n "$TOKEN"` completes only with the secret typed again.
  await expectState(page, 'completed');
  expect(submits).toHaveLength(1);
});
