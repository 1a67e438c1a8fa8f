import type { Page } from '@playwright/test';
import { auditBothThemes } from './axe';
import { expect, test } from './fixtures';
import {
  addParameter,
  confirmCancel,
  expectState,
  fillBasics,
  openCancelDialog,
  submitAndOpen,
  submitViaApi,
  unique,
  waitForStateViaApi,
} from './helpers';

// What an operator trips over (issue 46): each part asserted, then audited by axe in both themes.

/** The instant the schedule field says it sends. */
async function sentAt(page: Page): Promise<number> {
  return Date.parse(await page.getByTestId('schedule-utc').locator('code').innerText());
}

test("cancel is worded by the definition's grace period, the spec's words without it", async ({
  page,
  extensions,
}) => {
  // Ignores SIGTERM: cancelling lasts demo::shell:1's grace period (10 s, the default).
  await fillBasics(page, 'demo::shell:1');
  await addParameter(page, 'script', "trap '' TERM; while true; do sleep 1; done");
  await submitAndOpen(page);
  await expectState(page, 'running');
  const dialog = await openCancelDialog(page);
  const wording = dialog.getByTestId('cancel-stop-wording');
  if (extensions) {
    await expect(wording).toContainText("SIGKILL after 10 seconds (its definition's grace period)");
    await expect(wording).not.toContainText('two minutes');
  } else {
    await expect(wording).toContainText('It can take up to about two minutes');
  }
  await auditBothThemes(page, 'cancel dialog', '[role="dialog"]');
  await confirmCancel(dialog);
  const status = page.getByTestId('cancel-status');
  await expect(status).toContainText('Cancellation pending');
  await expect(status).toContainText(
    extensions
      ? "SIGKILL follows 10 seconds after the SIGTERM (its definition's grace period)."
      : 'it can take up to about two minutes',
  );
  await expectState(page, 'cancelled');
});

test('oldest waiting names no job scheduled for later; the ended counts open the last hour', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'The overview needs the queues extension (operator.spec.ts).');
  // What other files left waiting in the paused queue goes, so that the oldest is one of ours.
  for (;;) {
    const left = await page.request.get(
      '/v1/client/jobs?queue=demo::held&state=submitted,pending,runnable&limit=100',
    );
    expect(left.status(), await left.text()).toBe(200);
    const { items } = ((await left.json()) as { data: { items: { id: string }[] } }).data;
    if (items.length === 0) break;
    for (const job of items) await page.request.post(`/v1/client/job/${job.id}/cancel`);
  }
  const later = unique('tomorrow');
  const laterId = await submitViaApi(page, {
    job_definition: 'demo::hello:1',
    job_queue: 'demo::held',
    name: later,
    schedule_at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  const ready = unique('ready');
  const readyId = await submitViaApi(page, {
    job_definition: 'demo::hello:1',
    job_queue: 'demo::held',
    name: ready,
  });
  await waitForStateViaApi(page, readyId, 'runnable');
  await page.goto('/');
  const held = page.getByTestId('queue-card').and(page.locator('[data-queue="demo::held"]'));
  await expect(held.getByTestId('queue-waiting')).toContainText(`Oldest waiting: ${ready}`);
  await expect(held.getByTestId('queue-waiting')).not.toContainText(later);
  await auditBothThemes(page, 'overview');

  // Ended just now: in the list the count opens.
  await page.request.post(`/v1/client/job/${laterId}/cancel`);
  await expect(held.getByTestId('ended-cancelled')).not.toHaveAccessibleName(/^0 /);
  await held.getByTestId('ended-cancelled').click();
  await expect(page).toHaveURL(/\/jobs\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('queue')).toBe('demo::held');
  expect(url.searchParams.getAll('state')).toEqual(['cancelled']);
  // Exactly the jobs that ended in the last hour, where the list filters by ended time.
  expect(url.searchParams.get('ended')).toBe('1h');
  const table = page.getByRole('table', { name: 'Project jobs' });
  await expect(table.getByRole('row', { name: new RegExp(later) })).toBeVisible();
  await page.request.post(`/v1/client/job/${readyId}/cancel`);
});

test("the bulk cancel's buttons stay in view above a long list", async ({ page, extensions }) => {
  test.skip(!extensions, 'Selecting jobs needs the job list (an extension).');
  const prefix = unique('many');
  for (let n = 0; n < 40; n += 1)
    await submitViaApi(page, {
      job_definition: 'demo::hello:1',
      job_queue: 'demo::held',
      name: `${prefix}-${String(n).padStart(2, '0')}`,
    });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/jobs?queue=demo::held&name=${prefix}`);
  const table = page.getByRole('table', { name: 'Project jobs' });
  await expect(table.getByRole('row', { name: new RegExp(`${prefix}-00`) })).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(prefix) })).toHaveCount(40);
  await page.getByRole('checkbox', { name: 'Select every job on this page' }).check();
  await page.getByRole('button', { name: 'Cancel selected…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel the selected jobs?' });
  const confirm = dialog.getByRole('button', { name: 'Cancel 40 jobs' });
  // The list (newest first) runs past the window; the buttons do not go with it.
  await expect(dialog.getByText(`${prefix}-00`)).not.toBeInViewport();
  await expect(confirm).toBeInViewport({ ratio: 1 });
  await expect(dialog.getByRole('button', { name: 'Keep them' })).toBeInViewport({ ratio: 1 });
  await auditBothThemes(page, 'bulk cancel dialog', '[role="dialog"]');
  await dialog.getByText(`${prefix}-00`).scrollIntoViewIfNeeded();
  await expect(confirm).toBeInViewport({ ratio: 1 });
  await confirm.click();
  await expect(page.getByTestId('bulk-cancel-results')).toBeVisible();
});

test('the schedule picker: a picked day gets a time ahead, presets, a warning for a time gone by', async ({
  page,
}) => {
  await fillBasics(page, 'demo::hello:1');
  // Today picked in the calendar: not today's 00:00, which has passed.
  await page.locator('label', { hasText: 'Date and time' }).click();
  await page.getByRole('button', { name: 'Local date and time' }).click();
  const label = new Date().toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
  await page.getByRole('button', { name: label, exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('schedule-utc')).toBeVisible();
  expect(await sentAt(page)).toBeGreaterThan(Date.now());
  await expect(page.getByTestId('schedule-past')).toHaveCount(0);

  // A preset: a time ahead, in the date-and-time field where it can be adjusted.
  const before = Date.now();
  await page.getByRole('button', { name: 'In 10 min' }).click();
  await expect.poll(() => sentAt(page)).toBeGreaterThanOrEqual(before + 10 * 60_000 - 1000);
  expect(await sentAt(page)).toBeLessThanOrEqual(Date.now() + 10 * 60_000);
  await page.getByRole('button', { name: 'Tonight 02:00' }).click();
  await expect
    .poll(async () => {
      const at = new Date(await sentAt(page));
      return [at.getHours(), at.getMinutes(), at.getSeconds()];
    })
    .toEqual([2, 0, 0]);
  const tonight = new Date(await sentAt(page));
  expect(tonight.getTime()).toBeGreaterThan(Date.now());
  expect(tonight.getTime()).toBeLessThanOrEqual(Date.now() + 86_400_000);

  // A time gone by says so, before the job is sent.
  await page.locator('label', { hasText: 'Unix seconds' }).click();
  await page
    .getByRole('textbox', { name: 'Unix timestamp (seconds)' })
    .fill(String(Math.floor(Date.now() / 1000) - 3600));
  const past = page.getByTestId('schedule-past');
  await expect(past).toBeVisible();
  await expect(past).toContainText('The job runs as soon as it is submitted');
  await auditBothThemes(page, 'submit, schedule in the past');
});
