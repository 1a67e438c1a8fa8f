import { expect, test } from './fixtures';
import {
  addParameter,
  confirmCancel,
  expectState,
  fillBasics,
  openCancelDialog,
  screenshot,
  submitAndOpen,
  submitViaApi,
} from './helpers';

test('submit a job, watch it complete, read its output', async ({ page, extensions }) => {
  await fillBasics(page, 'demo::hello:1');
  await page.getByRole('textbox', { name: 'Name' }).fill('e2e-hello');
  await page.getByRole('button', { name: 'Add word' }).click();
  await page.getByRole('combobox', { name: 'Command word 1' }).fill('echo');
  await page.getByRole('button', { name: 'Add word' }).click();
  await page.getByRole('combobox', { name: 'Command word 2' }).fill('Param::who');
  await addParameter(page, 'who', 'from the browser');
  await expect(page.getByTestId('command-preview')).toContainText('["echo","from the browser"]');
  await screenshot(page, 'submit');
  await submitAndOpen(page);
  await expect(page.getByRole('heading', { name: 'e2e-hello' })).toBeVisible();
  await expectState(page, 'completed');
  await page.getByRole('tab', { name: 'Timeline' }).click();
  await expect(page.getByTestId('observed-timeline')).toContainText('completed');
  await page.getByRole('tab', { name: 'Logs' }).click();
  if (extensions) {
    await expect(page.getByTestId('log-line')).toHaveText(['from the browser']);
    // An ended job's output is all there: nothing to follow.
    await expect(page.getByRole('switch', { name: 'Follow' })).toHaveCount(0);
    await expect(page.getByTestId('execution-command')).toHaveText("echo 'from the browser'");
    await expect(page.getByTestId('execution-exit-code')).toHaveText('0');
  } else {
    await expect(page.getByText('This service does not offer logs.')).toBeVisible();
    await expect(page.getByText('This service does not describe executions.')).toBeVisible();
  }
  await screenshot(page, 'job-completed');
});

test('a failing job shows failed and the service note', async ({ page }) => {
  await fillBasics(page, 'demo::shell:1');
  await addParameter(page, 'script', 'echo broken >&2; exit 3');
  await submitAndOpen(page);
  await expectState(page, 'failed');
  await expect(page.getByTestId('system-note')).toHaveText(/exited with code 3/);
  await screenshot(page, 'job-failed');
});

test('cancel a running job: pending indicator, kept across reload, then cancelled', async ({
  page,
  extensions,
}) => {
  // Ignores SIGTERM: cancelling lasts its grace period (10 s), then SIGKILL ends it.
  await fillBasics(page, 'demo::shell:1');
  await addParameter(page, 'script', "trap '' TERM; while true; do sleep 1; done");
  const id = await submitAndOpen(page);
  await expectState(page, 'running');
  const dialog = await openCancelDialog(page);
  await expect(dialog).toContainText('Current state:');
  await expect(dialog.getByTestId('state-badge').nth(0)).toHaveAttribute('data-state', 'running');
  await expect(dialog.getByTestId('state-badge').nth(1)).toHaveAttribute(
    'data-state',
    'cancelling',
  );
  await confirmCancel(dialog);
  await expect(page.getByTestId('cancel-status')).toContainText('Cancellation pending');
  // The definition's grace when the service describes it (operator-trips.spec.ts), else the spec's.
  await expect(page.getByTestId('cancel-status')).toContainText(
    extensions ? 'SIGKILL follows 10 seconds' : 'it can take up to about two minutes',
  );
  await screenshot(page, 'job-cancelling');
  await page.reload();
  await expect(page.getByTestId('cancel-status')).toBeVisible();
  await expectState(page, 'cancelled');
  await expect(page.getByTestId('cancel-status')).toContainText(
    'The cancellation you requested is done.',
  );
  await expect(page.getByRole('button', { name: 'Cancel job' })).toHaveCount(0);
  expect(page.url()).toContain(id);
});

test('a scheduled job shows pending, its note and a countdown', async ({ page }) => {
  await fillBasics(page, 'demo::hello:1');
  await page.locator('label', { hasText: 'Unix seconds' }).click();
  await page
    .getByRole('textbox', { name: 'Unix timestamp (seconds)' })
    .fill(String(Math.floor(Date.now() / 1000) + 3600));
  await expect(page.getByTestId('schedule-utc')).toContainText('Sent as');
  await submitAndOpen(page);
  await expectState(page, 'pending');
  await expect(page.getByTestId('schedule-countdown')).toContainText(/Starts in (59|1:00):\d\d/);
  await expect(page.getByTestId('system-note')).toContainText('scheduled for');
  await screenshot(page, 'job-pending');
  // Cancelling a waiting job is immediate.
  await confirmCancel(await openCancelDialog(page));
  await expectState(page, 'cancelled');
});

test('bad input is stopped at its field before any request', async ({ page }) => {
  const submits: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/v1/client/job'))
      submits.push(request.url());
  });
  await fillBasics(page, 'not-a-definition', 'demo');
  await page.getByRole('button', { name: 'Add word' }).click();
  await page.getByRole('combobox', { name: 'Command word 1' }).fill('Param::missing');
  await page.getByRole('button', { name: 'Add variable' }).click();
  await page.getByRole('textbox', { name: 'Variable 1 name' }).fill('1BAD');
  await page.getByRole('button', { name: 'Submit job' }).click();
  await expect(page.getByText('must look like <project>::<definition>:<version>')).toBeVisible();
  await expect(page.getByText('must look like <project>::<queue>')).toBeVisible();
  await expect(
    page.getByText('refers to parameter "missing", which the parameters below do not define'),
  ).toBeVisible();
  await expect(page.getByText(/is not a valid variable name/)).toBeVisible();
  await screenshot(page, 'submit-invalid');
  expect(submits).toEqual([]);
});

test("the server's refusal is shown at the field it names", async ({ page }) => {
  await fillBasics(page, 'demo::nope:1');
  await page.getByRole('button', { name: 'Submit job' }).click();
  await expect(page.getByText('no definition "demo::nope:1" is declared')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Job definition' })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  expect(page.url()).toContain('/submit');
});

test('a sensitive value leaves no trace in the page or browser storage', async ({ page }) => {
  const secret = 'e2e-secret-9d8c7b6a';
  await fillBasics(page, 'demo::shell:1');
  await addParameter(page, 'script', 'test -n "$TOKEN"');
  await page.getByRole('button', { name: 'Add variable' }).click();
  await page.getByRole('textbox', { name: 'Variable 1 name' }).fill('TOKEN');
  await page.getByRole('switch', { name: 'Variable 1 is sensitive' }).check({ force: true });
  await page.getByLabel('Variable 1 value').fill(secret);
  await expect(page.getByTestId('payload-preview')).not.toContainText(secret);
  await expect(page.getByTestId('payload-preview')).toContainText('<redacted>');
  await submitAndOpen(page);
  await expectState(page, 'completed');
  const storage = await page.evaluate(
    () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
  );
  expect(storage).not.toContain(secret);
  expect(storage).toContain('TOKEN');
  expect(await page.content()).not.toContain(secret);
  expect(page.url()).not.toContain(secret);
  // Submit again: the form comes back without the secret, asking for it.
  await page.getByRole('link', { name: 'Submit again' }).click();
  await expect(
    page.getByText('Sensitive values are never kept, so enter them again.'),
  ).toBeVisible();
  await expect(page.getByLabel('Variable 1 value')).toHaveValue('');
});

test("recent jobs list this browser's jobs with live state; unknown ids get a clear page", async ({
  page,
  extensions,
}) => {
  await fillBasics(page, 'demo::hello:1');
  await page.getByRole('textbox', { name: 'Name' }).fill('listed-job');
  await submitAndOpen(page);
  await expectState(page, 'completed');
  await page.goto('/jobs');
  if (extensions) {
    // The service lists the whole project (an extension): that table comes first.
    const projectJobs = page.getByRole('table', { name: 'Project jobs' });
    await expect(projectJobs.getByRole('row', { name: /listed-job/ })).toBeVisible();
    await page.getByRole('tab', { name: 'Recent in this browser' }).click();
  } else {
    await expect(page.getByTestId('no-job-list')).toContainText('This service does not list jobs');
    await expect(page.getByRole('tab', { name: 'All jobs of the project' })).toHaveCount(0);
  }
  const row = page
    .getByRole('table', { name: 'Recent jobs' })
    .getByRole('row', { name: /listed-job/ });
  await expect(row.getByTestId('state-badge')).toHaveAttribute('data-state', 'completed');
  await screenshot(page, 'jobs-recent');
  await screenshot(page, 'jobs-spec-only', { degraded: true });
  await page.goto('/jobs/does-not-exist');
  await expect(page.getByTestId('job-not-found')).toContainText(
    'no job "does-not-exist" in this project',
  );
  await screenshot(page, 'job-not-found');
  await page.goto('/settings');
  await expect(page.getByLabel('API key')).toBeVisible();
  await screenshot(page, 'settings');
  // Down to a phone: the navigation folds behind a burger, the page stays usable.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/submit');
  await expect(page.getByRole('button', { name: 'Toggle navigation' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit job' })).toBeVisible();
  await screenshot(page, 'phone-submit');
});

test('a refused key and a lost network each get a clear state, and the data stays', async ({
  page,
  context,
}) => {
  await fillBasics(page, 'demo::sleep:1');
  const id = await submitAndOpen(page);
  await expectState(page, 'running');

  // The browser goes offline: the page keeps what it showed and says why it is not refreshing.
  await context.setOffline(true);
  await expect(page.getByTestId('fetch-status')).toContainText('offline', { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: /^sleep-/ })).toBeVisible();
  await expectState(page, 'running');
  await screenshot(page, 'job-offline');
  await context.setOffline(false);
  await expect(page.getByTestId('fetch-status')).not.toContainText('offline', { timeout: 15_000 });

  // The service cannot be reached: the refresh fails, the data stays, retries go on.
  await page.route('**/v1/**', (route) => route.abort('connectionrefused'));
  await expect(page.getByTestId('fetch-status')).toContainText(
    'refresh failed: The service could not be reached (network error). Retrying.',
    { timeout: 15_000 },
  );
  await expectState(page, 'running');
  await page.unroute('**/v1/**');
  await expect(page.getByTestId('fetch-status')).not.toContainText('refresh failed', {
    timeout: 60_000,
  });

  // A wrong key typed in Settings: the service's 401, with the way out.
  await page.goto('/settings');
  await page.getByLabel('API key').fill('jd_wrong-key');
  await page.getByRole('button', { name: 'Save key' }).click();
  await page.goto(`/jobs/${id}`);
  await expect(page.getByRole('alert')).toContainText('The service refused the API key');
  await expect(page.getByRole('alert')).toContainText('Authorization: unknown or revoked API key');
  await expect(page.getByRole('alert').getByRole('link', { name: 'Settings' })).toBeVisible();
  await screenshot(page, 'job-401');

  // Forgetting the key falls back to the console's own, and the job can be stopped.
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Forget key' }).click();
  await page.goto(`/jobs/${id}`);
  await confirmCancel(await openCancelDialog(page));
  await expectState(page, 'cancelled');
});

test('a cut output says what was kept of what was printed; the download has all of it', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'Logs are an extension: the spec-only run has none.');
  const line = 'lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor';
  const id = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    container_cmd_parameter: {
      script: `awk 'BEGIN { for (i = 1; i <= 15000; i++) printf "line %05d ${line}\\n", i }'`,
    },
  });
  await page.goto(`/jobs/${id}`);
  await expectState(page, 'completed', 60_000);
  // 1.3 MiB printed, 1 MiB kept (e2e/jobdeck.e2e.yaml): the newest lines, counted.
  const kept = page.getByTestId('log-kept');
  await expect(kept).toHaveText(
    /^The service kept the last [\d,]+ of 15,000 lines \(10\d\d(\.\d)? KiB of 1\.3 MiB\)\.$/,
  );
  const keptLines = Number(
    /last ([\d,]+)/.exec((await kept.textContent()) ?? '')![1]!.replace(',', ''),
  );
  await expect(page.getByTestId('log-line-count')).toHaveText(`${keptLines} lines`);
  await screenshot(page, 'job-logs-cut');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  const { readFileSync } = await import('node:fs');
  const text = readFileSync((await (await download).path())!, 'utf8');
  const lines = text.trimEnd().split('\n');
  expect(lines).toHaveLength(keptLines);
  expect(lines.at(-1)).toBe(`line 15000 ${line}`);
  expect(lines.at(1)).toBe(`line ${String(15000 - keptLines + 2).padStart(5, '0')} ${line}`);
});
