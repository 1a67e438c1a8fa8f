import type { Locator, Page } from '@playwright/test';
import { auditBothThemes } from './axe';
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
  unique,
  watchCspViolations,
} from './helpers';

/** The requests for arrays the page makes from now on. */
function arrayRequests(page: Page): string[] {
  const requests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/array')) requests.push(request.url());
  });
  return requests;
}

const arraySection = (page: Page) => page.getByRole('region', { name: 'Array' });
const children = (page: Page) => arraySection(page).getByRole('table', { name: 'Children' });
/** A child's row by its index. */
const childRow = (page: Page, index: number) =>
  children(page).locator(`[data-child-index="${index}"]`);
const stateOf = (row: Locator) => row.getByTestId('state-badge');
/** The children as a table: the section opens on its grid. */
const showTable = (page: Page) => arraySection(page).getByText('Table', { exact: true }).click();
const grid = (page: Page) => arraySection(page).getByRole('listbox', { name: 'Children by index' });
/** A child's cell in the grid by its index. */
const cell = (page: Page, index: number) => grid(page).locator(`[data-child-index="${index}"]`);

test('an array submitted from the form: its children complete, a filter, a child and back', async ({
  page,
  extensions,
}) => {
  const violations = await watchCspViolations(page);
  const requests = arrayRequests(page);
  await fillBasics(page, 'demo::shell:1');
  const size = page.getByRole('textbox', { name: 'Array size' });
  if (!extensions) {
    // A service without arrays: no field, and a job's page asks nothing of arrays.
    await expect(page.getByRole('textbox', { name: 'Name' })).toBeVisible();
    await expect(size).toHaveCount(0);
    await submitAndOpen(page);
    await expectState(page, 'completed');
    await expect(arraySection(page)).toHaveCount(0);
    expect(requests).toEqual([]);
    expect(await violations()).toEqual([]);
    return;
  }
  const name = unique('fan-out');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await addParameter(page, 'script', 'echo "child $JOBDECK_ARRAY_INDEX of $JOBDECK_ARRAY_SIZE"');
  // Out of range first: refused at the field, before any request.
  await size.fill('1');
  await page.getByRole('button', { name: 'Submit job' }).click();
  await expect(size).toHaveAttribute('aria-invalid', 'true');
  await expect(size).toHaveAccessibleDescription(/^must be at least 2 /);
  await size.fill('4');
  await expect(size).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('array-summary')).toContainText('Set: 4 children');
  await expect(page.getByTestId('payload-preview')).toContainText('"array": {');
  await expect(page.getByTestId('payload-preview')).toContainText('"size": 4');
  await page.getByTestId('array-summary').scrollIntoViewIfNeeded();
  await screenshot(page, 'submit-array');
  const parent = await submitAndOpen(page);

  // The parent follows its children to completed, counted by state.
  await expect(arraySection(page).getByTestId('child-count-completed')).toHaveText('4 completed', {
    timeout: 60_000,
  });
  await expectState(page, 'completed');
  await expect(page.getByTestId('system-note')).toContainText('4 of 4 completed');
  await expect(grid(page).getByRole('option')).toHaveCount(4);
  await showTable(page);
  await expect(children(page).getByRole('row')).toHaveCount(5);
  for (const index of [0, 1, 2, 3]) {
    const row = childRow(page, index);
    await expect(row.getByRole('link')).toHaveText(`${name}:${index}`);
    await expect(stateOf(row)).toHaveAttribute('data-state', 'completed');
    await expect(row.getByTestId('child-exit-code')).toHaveText('0');
  }
  await expect(page.getByTestId('array-logs')).toBeAttached();
  // The picture without the submit's notification over the table.
  await expect(page.getByText('Job submitted')).toBeHidden({ timeout: 15_000 });
  await screenshot(page, 'job-array');

  // A filter: in the URL, and what it lets through.
  await page.getByTestId('child-count-completed').click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${parent}\\?children=completed$`));
  await expect(page.getByRole('checkbox', { name: 'All 4' })).not.toBeChecked();
  await expect(arraySection(page).getByTestId('children-shown')).toHaveText('4 of 4 shown');

  // A child's own page: its output, and its place linked back to the parent.
  await childRow(page, 2).getByRole('link').click();
  await expect(page.getByTestId('array-place')).toHaveText(`Child 2 of array ${name}`);
  await expectState(page, 'completed');
  await expect(page.getByTestId('log-line')).toHaveText(['child 2 of 4']);
  await expect(arraySection(page)).toHaveCount(0);
  // Back: the parent with its filter, as it was left.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`\\?children=completed$`));
  await expect(page.getByRole('checkbox', { name: '4 completed' })).toBeChecked();
  await showTable(page);
  await childRow(page, 2).getByRole('link').click();
  await page.getByTestId('array-place').getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${parent}$`));
  await expect(page.getByRole('checkbox', { name: 'All 4' })).toBeChecked();
  // Ended: read once as the page opens, and no more.
  await page.waitForTimeout(1000);
  const reads = requests.length;
  await page.waitForTimeout(3000);
  expect(requests.length).toBe(reads);
  expect(await violations()).toEqual([]);
});

test('an array of sleeping children: some cancelled by selection, the rest with the parent', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'Arrays are an extension (the test above checks the page has none).');
  const violations = await watchCspViolations(page);
  const name = unique('sleepers');
  const parent = await submitViaApi(page, {
    job_definition: 'demo::sleep:1',
    name,
    container_cmd_parameter: { seconds: '120' },
    // More than the queue's 4 slots: some run, the rest wait.
    array: { size: 6 },
  });
  await page.goto(`/jobs/${parent}`);
  await expectState(page, 'running');
  await showTable(page);
  await expect(stateOf(childRow(page, 0))).toHaveAttribute('data-state', 'running');
  await expect(stateOf(childRow(page, 5))).toHaveAttribute('data-state', 'runnable');

  // A filter by a state that is not the last one: only the waiting children.
  await page.getByTestId('child-count-runnable').click();
  await expect(page).toHaveURL(/\?children=runnable$/);
  await expect(childRow(page, 0)).toHaveCount(0);
  await expect(stateOf(childRow(page, 5))).toHaveAttribute('data-state', 'runnable');
  await page.getByTestId('child-count-all').click();
  await expect(page.getByRole('checkbox', { name: 'All 6' })).toBeChecked();

  // Two selected: a running one (stopped) and a waiting one (cancelled at once).
  await childRow(page, 0).getByRole('checkbox').check();
  await childRow(page, 5).getByRole('checkbox').check();
  await expect(page.getByTestId('selection-count')).toHaveText('2 selected');
  await page.getByRole('button', { name: 'Cancel selected…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel the selected jobs?' });
  await expect(dialog.getByTestId('plan-stopping')).toContainText(`${name}:0`);
  await expect(dialog.getByTestId('plan-immediate')).toContainText(`${name}:5`);
  await dialog.getByRole('button', { name: 'Cancel 2 jobs' }).click();
  const answered = page.getByRole('dialog', { name: 'What happened to each job' });
  await expect(answered.locator('[data-result="accepted"]')).toHaveCount(2);
  await answered.getByRole('button', { name: 'Done' }).click();
  await expect(stateOf(childRow(page, 0))).toHaveAttribute('data-state', 'cancelled');
  await expect(stateOf(childRow(page, 5))).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByTestId('child-count-cancelled')).toHaveText('2 cancelled');
  // The others run on: the parent is not cancelled by its children's cancel.
  await expectState(page, 'running');

  // The parent's own cancel takes the four others with it.
  const cancel = await openCancelDialog(page);
  await expect(cancel.getByTestId('cancel-array')).toContainText(
    'Its 4 children that have not ended are cancelled with it',
  );
  await confirmCancel(cancel);
  await expectState(page, 'cancelled');
  await expect(page.getByTestId('child-count-cancelled')).toHaveText('6 cancelled');
  await expect(page.getByTestId('system-note')).toContainText('6 cancelled');
  await expect(page.getByRole('button', { name: 'Cancel job' })).toHaveCount(0);
  expect(await violations()).toEqual([]);
});

test('the grid: a cell per child by state, failures first, a range selected and cancelled', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'Arrays are an extension (the first test checks the page has none).');
  const violations = await watchCspViolations(page);
  // Children 1 and 4 fail, the others complete.
  const failing = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    name: unique('some-fail'),
    container_cmd_parameter: { script: 'exit $((JOBDECK_ARRAY_INDEX % 3 == 1))' },
    array: { size: 6 },
  });
  await page.goto(`/jobs/${failing}`);
  await expect(arraySection(page).getByTestId('child-count-failed')).toHaveText('2 failed', {
    timeout: 60_000,
  });
  await expect(grid(page).getByRole('option')).toHaveCount(6);
  await expect(cell(page, 1)).toHaveAttribute('data-state', 'failed');
  await expect(cell(page, 0)).toHaveAttribute('data-state', 'completed');
  await expect(grid(page).getByRole('option').first()).toHaveAttribute('data-child-index', '0');
  await arraySection(page).getByRole('switch', { name: 'Failures first' }).click();
  await expect(grid(page).getByRole('option').nth(0)).toHaveAttribute('data-child-index', '1');
  await expect(grid(page).getByRole('option').nth(1)).toHaveAttribute('data-child-index', '4');
  // Keyboard: the first cell, then Shift+→ takes the next into the range.
  await grid(page).getByRole('option').nth(0).focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByTestId('selection-count')).toHaveText('2 selected');
  await expect(page.getByTestId('focused-child')).toContainText(':4');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('array-place')).toContainText('Child 4 of array');
  await page.goBack();
  await expect(grid(page)).toBeVisible();
  await auditBothThemes(page, 'array grid', 'section[aria-labelledby="array-title"]');

  const name = unique('grid-sleepers');
  const sleepers = await submitViaApi(page, {
    job_definition: 'demo::sleep:1',
    name,
    container_cmd_parameter: { seconds: '120' },
    array: { size: 6 },
  });
  await page.goto(`/jobs/${sleepers}`);
  await expectState(page, 'running');
  await expect(cell(page, 0)).toHaveAttribute('data-state', 'running');
  // A click, then a shift-click: the four children between, both ends included.
  await cell(page, 1).click();
  await cell(page, 4).click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('selection-count')).toHaveText('4 selected');
  for (const index of [1, 2, 3, 4])
    await expect(cell(page, index)).toHaveAttribute('aria-selected', 'true');
  await expect(cell(page, 0)).toHaveAttribute('aria-selected', 'false');
  await expect(cell(page, 5)).toHaveAttribute('aria-selected', 'false');
  await page.getByRole('button', { name: 'Cancel selected…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel the selected jobs?' });
  await dialog.getByRole('button', { name: 'Cancel 4 jobs' }).click();
  const answered = page.getByRole('dialog', { name: 'What happened to each job' });
  await expect(answered.locator('[data-result="accepted"]')).toHaveCount(4);
  await answered.getByRole('button', { name: 'Done' }).click();
  for (const index of [1, 2, 3, 4])
    await expect(cell(page, index)).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByTestId('child-count-cancelled')).toHaveText('4 cancelled');
  await confirmCancel(await openCancelDialog(page));
  await expectState(page, 'cancelled');
  expect(await violations()).toEqual([]);
});

test("a failed array's indexes submitted again: only those run, each with its index and the array's size", async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'Arrays are an extension (the first test checks the page has none).');
  const violations = await watchCspViolations(page);
  // Children 1 and 4 fail, the others complete; each says which it is.
  const failing = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    name: unique('again'),
    container_cmd_parameter: {
      script:
        'echo "child $JOBDECK_ARRAY_INDEX of $JOBDECK_ARRAY_SIZE"; exit $((JOBDECK_ARRAY_INDEX % 3 == 1))',
    },
    array: { size: 6 },
  });
  await page.goto(`/jobs/${failing}`);
  await expect(arraySection(page).getByTestId('child-count-failed')).toHaveText('2 failed', {
    timeout: 60_000,
  });
  await cell(page, 1).click();
  await cell(page, 4).click();
  await arraySection(page).getByRole('link', { name: 'Submit these indexes again' }).click();
  await expect(page).toHaveURL(new RegExp(`/submit\\?from=${failing}&indexes=1,4$`));
  await expect(page.getByTestId('array-summary')).toContainText('only indexes 1, 4 again');
  await expect(page.getByTestId('payload-preview')).toContainText('"indexes": [');
  const again = await submitAndOpen(page);

  await expectState(page, 'failed', 60_000);
  await expect(page.getByTestId('array-progress')).toHaveText('2 children');
  await expect(grid(page).getByRole('option')).toHaveCount(2);
  await expect(cell(page, 1)).toHaveAttribute('data-state', 'failed');
  await expect(cell(page, 4)).toHaveAttribute('data-state', 'failed');
  // Child 4 again: its own index, and the size of the array it comes from.
  await cell(page, 4).click();
  await page.getByTestId('focused-child').getByRole('link').click();
  await expect(page.getByTestId('array-place')).toContainText('Child 4 of array');
  await expect(page.getByTestId('log-line')).toHaveText(['child 4 of 6']);
  await page.getByTestId('array-place').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${again}$`));
  await auditBothThemes(page, 'an array of some indexes', 'section[aria-labelledby="array-title"]');
  expect(await violations()).toEqual([]);
});
