import { readFileSync } from 'node:fs';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { screenshot, submitViaApi, unique } from './helpers';

test('every job a filter matches, past the page shown, is cancelled by the service with its results to download', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'a service without the job list has no table to select from');
  // Sixty submissions and three axe audits: on the loaded 2-core machine it ran past 90 s twice
  // (1.7 and 1.8 min, each time inside an audit).
  test.setTimeout(180_000);
  const release = unique('release');
  const count = 60; // more than one page of 50
  for (let i = 0; i < count; i += 1) {
    await submitViaApi(page, {
      job_definition: 'demo::hello:1',
      job_queue: 'demo::held',
      name: `${release}-${i}`,
      labels: { release },
    });
  }
  await page.goto(`/jobs?label=release%3D${release}`);
  const table = page.getByRole('table', { name: 'Project jobs' });
  await expect(table.locator('tbody tr')).toHaveCount(50);
  await page.getByRole('checkbox', { name: 'Select every job on this page' }).check();
  await page.getByRole('button', { name: `Select all ${count} matching jobs` }).click();
  await expect(page.getByTestId('selection-count')).toHaveText(
    `All ${count} matching jobs selected`,
  );
  await page.getByRole('button', { name: 'Cancel all matching…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Cancel every matching job?' });
  await expect(dialog.getByText(`${count} jobs match these filters.`)).toBeVisible();
  await expect(dialog.locator('[data-plan="cancelled_at_once"]')).toHaveText(
    new RegExp(`Cancelled at once${count}`),
  );
  await expect(dialog.getByTestId('bulk-filter')).toHaveText(`Filters: label=release=${release}`);
  await expect(dialog.getByText(`${release}-${count - 1}`)).toBeVisible();
  await expect(dialog.getByText(`and ${count - 5} more`)).toBeVisible();
  expect(await seriousViolations(page), 'the dry run').toEqual([]);
  await screenshot(page, 'jobs-cancel-matching');
  await dialog.getByRole('button', { name: `Cancel ${count} jobs` }).click();

  const progress = page.getByTestId('bulk-progress');
  await expect(progress).toContainText(`Done: ${count} of ${count} jobs: ${count} accepted`);
  expect(await seriousViolations(page), 'the action done').toEqual([]);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download results (CSV)' }).click(),
  ]);
  const rows = readFileSync((await download.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(rows[0]).toBe('job_id,job_name,state_before,result,message');
  expect(rows.slice(1)).toHaveLength(count);
  expect(
    rows
      .slice(1)
      .every((row) => row.includes(`,${release}-`) && row.endsWith(',runnable,accepted,')),
  ).toBe(true);
  await page.getByRole('button', { name: 'Done' }).click();
  // What was selected is gone: the selection is cleared.
  await expect(page.getByTestId('selection-count')).toHaveText('0 selected');

  // Found again later, from the jobs page: what it did, and its results.
  await page.getByRole('button', { name: 'Bulk actions' }).click();
  const actions = page.getByRole('dialog', { name: 'Bulk actions' });
  const row = actions.getByRole('row').filter({ hasText: `label=release=${release}` });
  await expect(row.getByTestId('bulk-row-progress')).toHaveText(
    `Done: ${count} of ${count} jobs: ${count} accepted, 0 refused.`,
  );
  await expect(row.getByText('done', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: /^Stop/ })).toHaveCount(0);
  await expect(
    row.getByRole('button', { name: /^Download results \(CSV\): cancel label=/ }),
  ).toBeEnabled();
  expect(await seriousViolations(page), 'the bulk actions').toEqual([]);
  await page.keyboard.press('Escape');

  // The table read again: every row of the page cancelled, and the count by state says all.
  await expect(table.getByTestId('state-badge').filter({ hasText: 'cancelled' })).toHaveCount(50);
  await page.goto(`/jobs?label=release%3D${release}&state=runnable`);
  await expect(page.getByTestId('no-jobs')).toBeVisible();
});
