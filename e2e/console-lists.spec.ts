import type { Page } from '@playwright/test';
import { auditBothThemes } from './axe';
import { expect, test } from './fixtures';
import { submitViaApi, unique, waitForStateViaApi } from './helpers';

const table = (page: Page) => page.getByRole('table', { name: 'Project jobs' });
const header = (page: Page, name: string) =>
  table(page).getByRole('columnheader', { name, exact: true });
const firstRowId = (page: Page) =>
  table(page).locator('tbody tr').first().getAttribute('data-job-id');

test('a header sorts every matching job on the service, not only the page shown', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'The spec-only run has no project table.');
  const prefix = unique('service-sort');
  // The one job that ran, then a page's worth (50) of newer ones that never start: newest first,
  // the first page holds only those, so a sort of that page alone could never show it.
  const ran = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    name: `${prefix}-ran`,
    container_cmd_parameter: { script: 'sleep 1' },
  });
  await waitForStateViaApi(page, ran, 'completed');
  for (let i = 0; i < 50; i += 1) {
    await submitViaApi(page, {
      job_definition: 'demo::hello:1',
      name: `${prefix}-w${i}`,
      job_queue: 'demo::held',
    });
  }
  await page.goto(`/jobs?name=${prefix}`);
  await expect(page.getByTestId('job-count')).toHaveText('51 jobs match · 50 on this page');
  await expect(page.locator(`[data-job-id="${ran}"]`)).toHaveCount(0);

  await header(page, 'Duration').getByRole('button').click();
  await expect(page).toHaveURL(/sort=-duration/);
  await expect.poll(() => firstRowId(page)).toBe(ran);
  await expect(header(page, 'Duration')).toHaveAttribute('aria-sort', 'descending');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(table(page).locator('tbody tr')).toHaveCount(1);
  await expect(page.locator(`[data-job-id="${ran}"]`)).toHaveCount(0);
  await page.getByRole('button', { name: 'First page' }).click();

  // Ended, newest first: the job that ran leads, the waiting ones (never ended) after it.
  await header(page, 'Ended').getByRole('button').click();
  await expect(page).toHaveURL(/sort=-ended/);
  await expect.poll(() => firstRowId(page)).toBe(ran);
  await auditBothThemes(page, 'jobs sorted by the service');
  for (const id of await table(page)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-job-id')))) {
    if (id !== ran) await page.request.post(`/v1/client/job/${id}/cancel`);
  }
});

test('an ended count on the overview opens the jobs that ended in the last hour', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'The spec-only run has no overview counts.');
  const failed = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    name: unique('ended-hour'),
    container_cmd_parameter: { script: 'exit 3' },
  });
  await waitForStateViaApi(page, failed, 'failed');
  await page.goto('/');
  const card = page.getByRole('region', { name: 'Queue demo::default' });
  const link = card.getByTestId('ended-failed');
  await expect(link).toHaveAccessibleName(/: list those ended in the last hour$/);
  await expect(card.getByText(/filters by creation time/)).toHaveCount(0);
  await link.click();
  await expect(page).toHaveURL(/ended=1h/);
  await expect(page).not.toHaveURL(/created=/);
  await expect(page.getByRole('combobox', { name: 'Ended' })).toHaveValue('Last hour');
  await expect(page.locator(`[data-job-id="${failed}"]`)).toBeVisible();
  await auditBothThemes(page, 'jobs ended in the last hour');
});
