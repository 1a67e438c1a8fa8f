import { expect, test } from './fixtures';
import {
  addParameter,
  expectState,
  fillBasics,
  screenshot,
  submitAndOpen,
  submitViaApi,
  waitForStateViaApi,
} from './helpers';

// Fails its first attempt, succeeds on the second: the container gets JOBDECK_ATTEMPT.
const FAILS_ONCE = 'echo "attempt $JOBDECK_ATTEMPT"; [ "$JOBDECK_ATTEMPT" -ge 2 ] || exit 3';

test('retries set in the form: the attempts on the job page, each with its own output', async ({
  page,
  extensions,
}) => {
  const attemptsRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/attempts')) attemptsRequests.push(request.url());
  });
  await fillBasics(page, 'demo::shell:1');
  await addParameter(page, 'script', FAILS_ONCE);
  const setRetries = page.getByRole('button', { name: 'Set retries' });
  if (!extensions) {
    // A service without retries: no section, and the job page asks nothing of attempts.
    await expect(setRetries).toHaveCount(0);
    await submitAndOpen(page);
    await expectState(page, 'failed');
    await expect(page.getByRole('heading', { name: 'Attempts' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Retry' })).toHaveCount(0);
    expect(attemptsRequests).toEqual([]);
    return;
  }
  await setRetries.click();
  await page.getByRole('textbox', { name: 'Attempts' }).fill('2');
  await page.getByRole('textbox', { name: 'First delay (seconds)' }).fill('1');
  await expect(page.getByTestId('retry-summary')).toContainText('Set: 2 attempts');
  await submitAndOpen(page);
  await expectState(page, 'completed', 60_000);

  const attempts = page.getByRole('region', { name: 'Attempts' });
  await expect(attempts.getByTestId('attempt-of')).toHaveText(/2 of 2/);
  await expect(attempts.getByTestId('attempt-item')).toHaveCount(2);
  await expect(attempts.getByTestId('attempt-item').first()).toContainText('3'); // its exit code
  // The last attempt's output is the page's; the first one's opens on its own.
  await expect(page.getByTestId('log-line')).toHaveText(['attempt 2']);
  await attempts.getByRole('button', { name: 'Output of attempt 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Output of attempt 1' });
  await expect(dialog).toContainText('attempt 1');
  await screenshot(page, 'job-attempts');
});

test('a failed job offers Retry: the same job again, its strategy shown on the page', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'a service without retries (the test above checks the page has none)');
  const id = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    container_cmd_parameter: { script: 'exit 4' },
    retry: {
      attempts: 2,
      backoff: { initial_seconds: 0.5 },
      on_exit: [{ exit_codes: [4], action: 'exit' }],
    },
  });
  await waitForStateViaApi(page, id, 'failed');
  await page.goto(`/jobs/${id}`);
  await expectState(page, 'failed');
  // The first matching rule said exit: one attempt of two.
  await expect(
    page.getByRole('region', { name: 'Attempts' }).getByTestId('attempt-item'),
  ).toHaveCount(1);
  // In the execution panel's folded details.
  await expect(page.getByTestId('retry-strategy')).toContainText(/^2 attempts.*exit 4 → exit/);
  await page.getByRole('link', { name: 'Retry' }).click();
  await expect(page).toHaveURL(new RegExp(`/submit\\?from=${id}$`));
  await expect(page.getByRole('combobox', { name: 'Job definition' })).toHaveValue('demo::shell:1');
});
