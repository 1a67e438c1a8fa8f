import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { screenshot, submitViaApi, unique, waitForStateViaApi } from './helpers';

/**
 * Three jobs, oldest first: a quick one, a three-second one, and one left waiting in the held
 * queue (never started, so no duration). Returns their ids once the first two have ended.
 */
async function submitThree(page: Page, prefix: string) {
  const quick = await submitViaApi(page, { job_definition: 'demo::hello:1', name: `${prefix}-q` });
  const slow = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    name: `${prefix}-s`,
    container_cmd_parameter: { script: 'sleep 3' },
  });
  const waiting = await submitViaApi(page, {
    job_definition: 'demo::hello:1',
    name: `${prefix}-w`,
    job_queue: 'demo::held',
  });
  await waitForStateViaApi(page, quick, 'completed');
  await waitForStateViaApi(page, slow, 'completed');
  return { quick, slow, waiting };
}

const table = (page: Page) => page.getByRole('table', { name: 'Project jobs' });

/** The table's rows as job ids, top to bottom. */
const rowOrder = (page: Page) =>
  table(page)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-job-id')));

const header = (page: Page, name: string) =>
  table(page).getByRole('columnheader', { name, exact: true });

test('the jobs table sorts by its headers, keeps the sort in the URL, and Back restores it', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'The spec-only run has no project table (see below).');
  const prefix = unique('sorted');
  const { quick, slow, waiting } = await submitThree(page, prefix);
  await page.goto(`/jobs?name=${prefix}`);
  // The service's order: newest first, which the Created header says.
  await expect.poll(() => rowOrder(page)).toEqual([waiting, slow, quick]);
  await expect(header(page, 'Created')).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByTestId('job-count')).toHaveText('3 jobs match');

  // Longest first; the job that never started goes last.
  await header(page, 'Duration').getByRole('button').click();
  await expect(page).toHaveURL(/sort=-duration/);
  await expect.poll(() => rowOrder(page)).toEqual([slow, quick, waiting]);
  await expect(header(page, 'Duration')).toHaveAttribute('aria-sort', 'descending');
  await expect(header(page, 'Created')).not.toHaveAttribute('aria-sort');

  await header(page, 'Duration').getByRole('button').click();
  await expect(page).toHaveURL(/sort=duration/);
  await expect.poll(() => rowOrder(page)).toEqual([quick, slow, waiting]);
  await expect(header(page, 'Duration')).toHaveAttribute('aria-sort', 'ascending');

  // States in lifecycle order: the waiting job before the ended ones (ties by creation, in the
  // sort's direction, as the service sorts every matching job).
  await header(page, 'State').getByRole('button').click();
  await expect(page).toHaveURL(/sort=state/);
  await expect.poll(() => rowOrder(page)).toEqual([waiting, quick, slow]);
  await expect(header(page, 'State')).toHaveAttribute('aria-sort', 'ascending');
  await screenshot(page, 'jobs-sorted');

  // Back walks the sorts in reverse, table and headers with the URL.
  await page.goBack();
  await expect(page).toHaveURL(/sort=duration/);
  await expect.poll(() => rowOrder(page)).toEqual([quick, slow, waiting]);
  await expect(header(page, 'Duration')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header(page, 'State')).not.toHaveAttribute('aria-sort');
  await page.goBack();
  await expect(page).toHaveURL(/sort=-duration/);
  await expect.poll(() => rowOrder(page)).toEqual([slow, quick, waiting]);
  await page.goBack();
  await expect(page).not.toHaveURL(/sort=/);
  await expect.poll(() => rowOrder(page)).toEqual([waiting, slow, quick]);
  await expect(header(page, 'Created')).toHaveAttribute('aria-sort', 'descending');
});

test('each row shows its short id with a copy button and when it was created, exactly on hover', async ({
  page,
  context,
  extensions,
}) => {
  test.skip(!extensions, 'The spec-only run has no project table (see below).');
  const name = unique('row');
  const id = await submitViaApi(page, { job_definition: 'demo::hello:1', name });
  await page.goto(`/jobs?name=${name}`);
  const row = page.locator(`[data-job-id="${id}"]`);
  await expect(row.getByTestId('job-id')).toHaveText(`…${id.slice(-8)}`);
  const copy = row.getByRole('button', { name: 'Copy job id' });
  await expect(copy).toBeVisible();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await copy.click();
  await expect(page.getByRole('tooltip', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);

  const created = row.getByTestId('created').locator('time');
  await expect(created).toHaveText(/ago$/);
  await created.hover();
  const record = (await (await page.request.get(`/v1/client/job/${id}`)).json()) as {
    data: { created_at: string };
  };
  await expect(created).toHaveAttribute('datetime', record.data.created_at);
  // The exact time in the reader's zone (local by default).
  await expect(
    page.getByRole('tooltip').filter({ hasText: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/ }),
  ).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the filters fold into a drawer and the first screen shows jobs', async ({
    page,
    extensions,
  }) => {
    test.skip(!extensions, 'The spec-only run has no project table (see below).');
    const name = unique('phone');
    const id = await submitViaApi(page, { job_definition: 'demo::hello:1', name });
    await page.goto(`/jobs?name=${name}`);
    await expect(page.locator(`[data-job-id="${id}"]`)).toBeInViewport();
    await expect(page.getByRole('textbox', { name: 'Name starts with' })).toBeHidden();
    await screenshot(page, 'jobs-phone');

    await page.getByRole('button', { name: 'Filters (1)' }).click();
    const drawer = page.getByRole('dialog', { name: 'Filters' });
    await expect(drawer.getByRole('textbox', { name: 'Name starts with' })).toHaveValue(name);
    await drawer.getByRole('combobox', { name: 'Created' }).click();
    await page.getByRole('option', { name: 'Last hour' }).click();
    await expect(page).toHaveURL(/created=1h/);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('button', { name: 'Filters (2)' })).toBeVisible();
    await expect(page.locator(`[data-job-id="${id}"]`)).toBeInViewport();
  });
});

test('a service without the job list shows no sort, copy, count or filters drawer', async ({
  page,
  extensions,
}) => {
  test.skip(extensions, 'The full run covers the table above.');
  const id = await submitViaApi(page, { job_definition: 'demo::hello:1', name: unique('plain') });
  await page.goto(`/jobs/${id}`); // opened once: it joins this browser's recent jobs
  await expect(page.getByTestId('state-badge').first()).toBeVisible();
  await page.goto('/jobs');
  await expect(page.getByTestId('no-job-list')).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Recent jobs' }).getByRole('link').first(),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Project jobs' })).toHaveCount(0);
  await expect(page.getByTestId('job-count')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Filters/ })).toHaveCount(0);
});
