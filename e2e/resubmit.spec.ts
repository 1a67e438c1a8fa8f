import { expect, test } from './fixtures';
import { expectState, submitAndOpen, submitViaApi, waitForStateViaApi } from './helpers';

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
