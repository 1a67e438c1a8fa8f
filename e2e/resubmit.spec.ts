import { createHash } from 'node:crypto';
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

const FIRST_SECRET_SHA256 = createHash('sha256').update('first-secret').digest('hex');

test('a job with a secret is submitted again by the service, the secret kept there', async ({
  page,
  extensions,
}) => {
  // Submitted by a script, not by this browser: nothing of it is in the browser's storage.
  const id = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    // Its hash, not the secret, in the command: the page shows the command as it ran.
    container_cmd_parameter: {
      script: `test "$(printf %s "$TOKEN" | sha256sum | cut -c1-64)" = ${FIRST_SECRET_SHA256} && echo "plain=$PLAIN"`,
    },
    container_env: {
      TOKEN: { value: 'first-secret', sensitive: true },
      PLAIN: { value: 'kept' },
    },
  });
  await waitForStateViaApi(page, id, 'completed');
  await page.goto(`/jobs/${id}`);
  await expectState(page, 'completed');
  const again = page.getByRole('button', { name: 'Submit again' });
  if (!extensions) {
    // A service that does not describe executions: nothing to submit again from.
    await expect(again).toHaveCount(0);
    await expect(page.getByRole('link', { name: /Submit again/ })).toHaveCount(0);
    return;
  }
  await expect(again).toHaveAccessibleDescription(
    'Keeps the secret values of this job, in the service',
  );
  // The form stays one click away, where the secret is typed again.
  await expect(page.getByRole('link', { name: 'Edit and submit again' })).toHaveAttribute(
    'href',
    `/submit?from=${id}`,
  );
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    const rules = colorScheme === 'dark' ? COLOUR_RULES : undefined;
    expect(await seriousViolations(page, 'main', rules), colorScheme).toEqual([]);
  }
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(`${request.url()} ${request.postData() ?? ''}`);
  });
  await again.click();
  await expect(page).not.toHaveURL(new RegExp(`/jobs/${id}$`));
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  // The hash test completes only with the original secret, which never came to this page.
  await expectState(page, 'completed');
  await expect(page.getByTestId('log-line')).toHaveText(['plain=kept']);
  expect(posts).toEqual([expect.stringMatching(new RegExp(`/v1/client/job/${id}/resubmit $`))]);
  expect(await page.content()).not.toContain('first-secret');
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

  // Submitted from this browser: the form on every service, the spec-only one too (where the
  // service submits again itself, the form is "Edit and submit again").
  await page.getByRole('link', { name: /^(Edit and submit again|Submit again)$/ }).click();
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
