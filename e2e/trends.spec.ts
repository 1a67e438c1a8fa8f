import type { Page } from '@playwright/test';
import type { Trends } from '../contract';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { screenshot, submitViaApi, waitForStateViaApi } from './helpers';

/** demo::default's trends as the service answers them, through the console's proxy. */
async function trendsOf(page: Page, range: '24h' | '30d'): Promise<Trends> {
  const response = await page.request.get(`/v1/client/trends?queue=demo::default&range=${range}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: Trends }).data;
}

const ended = (trends: Trends) =>
  trends.buckets.reduce((sum, b) => sum + b.completed + b.failed + b.cancelled, 0);

test('the overview charts the jobs a queue ended per hour and per day, with their times, and says the same in text', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'a service without trends shows none');
  const before = ended(await trendsOf(page, '24h'));
  const shell = (script: string) =>
    submitViaApi(page, {
      job_definition: 'demo::shell:1',
      container_cmd_parameter: { script },
    });
  const jobs = [await shell('sleep 1'), await shell('true'), await shell('exit 3')];
  for (const [i, id] of jobs.entries()) {
    await waitForStateViaApi(page, id, i < 2 ? 'completed' : 'failed');
  }
  // The service's roller counts them within seconds.
  await expect
    .poll(async () => ended(await trendsOf(page, '24h')))
    .toBeGreaterThanOrEqual(before + 3);
  // Jobs of other files in demo::default (a scheduled one, a retry) can end while this test runs
  // and move the counts: the page, loaded afresh, must show what the service answered just
  // before, and is loaded again if a job ended in between.
  const section = page.getByRole('region', { name: 'Trends' });
  let day!: Trends;
  await expect(async () => {
    day = await trendsOf(page, '24h');
    await page.goto('/');
    await expect(section.getByRole('combobox', { name: 'Queue' })).toHaveValue('demo::default');
    await expect(section.getByTestId('trends-summary')).toHaveText(
      `${ended(day)} jobs ended in demo::default, per hour.`,
      { timeout: 5_000 },
    );
    const hour = day.buckets.at(-1)!;
    const table = section.getByRole('table', {
      name: 'Jobs of demo::default ended per hour, by outcome',
    });
    await expect(table.locator('tbody tr').last().locator('td')).toHaveText(
      [String(hour.completed), String(hour.failed), String(hour.cancelled)],
      { timeout: 5_000 },
    );
    await expect(section.getByTestId('trends-run-time')).toContainText(`(${day.run.jobs} jobs)`, {
      timeout: 5_000,
    });
  }).toPass({ timeout: 60_000 });
  const hour = day.buckets.at(-1)!;
  // The real chart: recharts drew a bar for each outcome of the current hour.
  const chart = section.getByTestId('trends-chart');
  await expect(chart.locator('.recharts-bar-rectangle path').first()).toBeVisible();
  expect(await chart.locator('.recharts-bar-rectangle path').count()).toBeGreaterThanOrEqual(
    (hour.completed > 0 ? 1 : 0) + (hour.failed > 0 ? 1 : 0),
  );
  await expect(section.getByTestId('trends-run-time')).toContainText('≈');
  expect(await seriousViolations(page), 'the trends of 24 hours').toEqual([]);
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, 'overview-trends');

  await expect(async () => {
    const month = await trendsOf(page, '30d');
    await page.goto('/');
    await section.getByText('Last 30 days').click();
    await expect(section.getByTestId('trends-summary')).toHaveText(
      `${ended(month)} jobs ended in demo::default, per day (UTC).`,
      { timeout: 5_000 },
    );
  }).toPass({ timeout: 60_000 });
  await expect(
    section.getByRole('table', { name: 'Jobs of demo::default ended per day (UTC), by outcome' }),
  ).toBeAttached();
  await expect(section.getByTestId('trends-table').locator('tbody tr')).toHaveCount(30);
  await expect(chart.locator('.recharts-bar-rectangle path').first()).toBeVisible();
  expect(await seriousViolations(page), 'the trends of 30 days').toEqual([]);
});
