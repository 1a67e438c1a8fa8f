import type { Locator, Page } from '@playwright/test';
import { COLOUR_RULES, seriousViolations } from './axe';
import { expect, test } from './fixtures';
import {
  confirmCancel,
  expectState,
  fillBasics,
  openCancelDialog,
  submitViaApi,
  waitForStateViaApi,
} from './helpers';

test('every page and dialog passes axe in both themes with no serious or critical violation', async ({
  page,
  extensions,
}) => {
  // 31 states, each audited in both themes (62 passes of axe), while the other services' files
  // run beside it.
  test.setTimeout(600_000);
  const audited: string[] = [];
  // Both themes of the same page state: Auto, the default, gives the dark one to everyone whose
  // system is dark, and follows the system's setting as it changes. One walk through the pages
  // instead of one per theme: the walk's waits (jobs starting, notifications closing) are half
  // of its time.
  // The dark pass runs only the rules a theme can change (the page's structure and names are
  // the same markup, judged in the light pass).
  const audit = async (name: string, include?: string) => {
    audited.push(name);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
      const rules = colorScheme === 'dark' ? COLOUR_RULES : undefined;
      expect(await seriousViolations(page, include, rules), `${name} (${colorScheme})`).toEqual([]);
    }
  };

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByTestId(extensions ? 'queue-card' : 'no-queue-view').first()).toBeVisible();
  await audit('overview');

  await fillBasics(page, 'demo::shell:1');
  await page.getByRole('button', { name: 'Add variable' }).click();
  await page.getByRole('button', { name: 'Add parameter' }).click();
  await audit('submit');
  await page.getByRole('button', { name: 'Submit job' }).click();
  await expect(page.getByText(/is required/).first()).toBeVisible();
  await audit('submit with errors');
  await page.getByRole('button', { name: 'Import JSON' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await audit('import dialog', '[role="dialog"]');
  await page.keyboard.press('Escape');

  const running = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    container_cmd_parameter: {
      script: 'for i in $(seq 1 200); do echo line $i; echo err $i >&2; sleep 0.2; done',
    },
  });
  await page.goto(`/jobs/${running}`);
  await expectState(page, 'running');
  if (extensions) await expect(page.getByTestId('log-line').first()).toBeVisible();
  await audit('job page, running, logs');
  const dialog = await openCancelDialog(page);
  await audit('cancel dialog', '[role="dialog"]');
  await confirmCancel(dialog);
  const notification = page.getByText('Cancel requested', { exact: true });
  // The pointer on it holds it open (it closes by itself after 4 s) for both themes' audits.
  await notification.hover();
  await audit('cancel notification', '.mantine-Notification-root');
  await page.mouse.move(0, 0);
  await expectState(page, 'cancelled');
  await audit('job page, cancelled');
  await page.getByRole('tab', { name: 'Timeline' }).click();
  await audit('job page, timeline');

  await page.goto('/jobs');
  await audit('jobs');
  if (extensions) {
    const waiting = await submitViaApi(page, {
      job_definition: 'demo::hello:1',
      job_queue: 'demo::held',
    });
    await waitForStateViaApi(page, waiting, 'runnable');
    await page.goto('/jobs?state=runnable&state=completed&created=custom');
    await expect(page.getByRole('table', { name: 'Project jobs' })).toBeVisible();
    await audit('jobs, filtered, custom range');
    await page.getByRole('checkbox', { name: 'Select every job on this page' }).check();
    await page.getByRole('button', { name: 'Cancel selected…' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await audit('bulk cancel dialog', '[role="dialog"]');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Cancel \d+ jobs?$/ })
      .click();
    await expect(page.getByTestId('bulk-cancel-results')).toBeVisible();
    await audit('bulk cancel results', '[role="dialog"]');
    await page.getByRole('button', { name: 'Done' }).click();
    // A phone: the filters move into a drawer.
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/jobs?sort=-duration');
    await expect(page.getByRole('table', { name: 'Project jobs' })).toBeVisible();
    await audit('jobs, phone, sorted');
    await page.getByRole('button', { name: 'Filters' }).click();
    await expect(page.getByRole('dialog', { name: 'Filters' })).toBeVisible();
    await audit('filters drawer', '[role="dialog"]');
    await page.setViewportSize(viewport);

    // Retries: the form's section open with a rule, a job waiting for its second attempt,
    // and the first attempt's output.
    await fillBasics(page, 'demo::shell:1');
    await page.getByRole('button', { name: 'Set retries' }).click();
    await page.getByRole('button', { name: 'Add rule' }).click();
    await audit('submit, retries');
    const retrying = await submitViaApi(page, {
      job_definition: 'demo::shell:1',
      container_cmd_parameter: { script: 'echo first try; exit 3' },
      retry: { attempts: 3, backoff: { initial_seconds: 120 } },
    });
    await page.goto(`/jobs/${retrying}`);
    await expect(page.getByTestId('attempt-countdown')).toBeVisible({ timeout: 30_000 });
    await audit('job page, waiting for attempt 2');
    await page.getByRole('button', { name: 'Output of attempt 1' }).click();
    await expect(page.getByRole('dialog')).toContainText('first try');
    await audit('attempt output dialog', '[role="dialog"]');
    await page.keyboard.press('Escape');
    await page.request.post(`/v1/client/job/${retrying}/cancel`);

    // Dependencies: the form's section with a row, and both sides of a dependency on the
    // job pages (the job waited for held in the paused queue, so nothing runs).
    await fillBasics(page, 'demo::hello:1');
    await page.getByRole('button', { name: 'Set dependencies' }).click();
    await page.getByRole('button', { name: 'Add dependency' }).click();
    await audit('submit, dependencies');
    const held = await submitViaApi(page, {
      job_definition: 'demo::hello:1',
      job_queue: 'demo::held',
    });
    const after = await submitViaApi(page, {
      job_definition: 'demo::hello:1',
      depends_on: [{ job_id: held }],
    });
    await page.goto(`/jobs/${after}`);
    await expect(page.getByRole('table', { name: 'Waits for' })).toBeVisible();
    await audit('job page, waiting for another job');
    await page.goto(`/jobs/${held}`);
    await expect(page.getByRole('table', { name: 'Waited on by' })).toBeVisible();
    await audit('job page, waited on by another job');
    await page.request.post(`/v1/client/job/${held}/cancel`);

    // Arrays: the form's size refused at its field; a parent with children running and
    // waiting, filtered, and its cancel dialog; a child's page with its parent linked.
    await fillBasics(page, 'demo::hello:1');
    const size = page.getByRole('textbox', { name: 'Array size' });
    await size.fill('1');
    await page.getByRole('button', { name: 'Submit job' }).click();
    await expect(size).toHaveAttribute('aria-invalid', 'true');
    await audit('submit, array size refused');
    const array = await submitViaApi(page, {
      job_definition: 'demo::sleep:1',
      container_cmd_parameter: { seconds: '120' },
      array: { size: 6 },
    });
    await page.goto(`/jobs/${array}`);
    const section = page.getByRole('region', { name: 'Array' });
    await expect(section.getByRole('listbox', { name: 'Children by index' })).toBeVisible();
    await audit('job page, array as a grid');
    // The section opens on its grid; the table shows each child's state badge.
    await section.getByText('Table', { exact: true }).click();
    const firstChild = page.locator('[data-child-index="0"]');
    await expect(firstChild.getByTestId('state-badge')).toHaveAttribute('data-state', 'running');
    await audit('job page, array');
    await page.getByTestId('child-count-running').click();
    await expect(page).toHaveURL(/\?children=running$/);
    await expect(page.getByRole('table', { name: 'Children' })).toHaveAttribute(
      'aria-busy',
      'false',
    );
    await audit('job page, array filtered');
    await firstChild.getByRole('link').click();
    await expect(page.getByTestId('array-place')).toBeVisible();
    await audit('job page, array child');
    await page.goBack();
    const arrayCancel = await openCancelDialog(page);
    await expect(arrayCancel.getByTestId('cancel-array')).toBeVisible();
    await audit('cancel dialog, array', '[role="dialog"]');
    await confirmCancel(arrayCancel);

    // Schedules: one paused, one active with its next firings, and the pause dialog
    // (e2e/schedules.spec.ts audits the page again once firings ran).
    await page.goto('/schedules');
    const newYear = page.locator('[data-schedule="new-year"]');
    await expect(newYear.getByTestId('next-firing').first()).toBeVisible();
    await audit('schedules');
    await newYear.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await audit('pause schedule dialog', '[role="dialog"]');
    await page.keyboard.press('Escape');
  }
  await page.goto('/jobs?view=recent');
  await audit('jobs, recent');
  await page.goto('/jobs/does-not-exist');
  await expect(page.getByTestId('job-not-found')).toBeVisible();
  await audit('job not found');
  await page.goto('/settings');
  await audit('settings');
  expect(audited.length).toBeGreaterThanOrEqual(extensions ? 31 : 13);
});

/** Presses Tab until `target` has the focus: how many it took (`max` + 1 if it never did). */
async function tabsUntilFocused(page: Page, target: Locator, max: number): Promise<number> {
  for (let tabs = 0; tabs <= max; tabs++) {
    if (await target.evaluate((el) => el === document.activeElement)) return tabs;
    await page.keyboard.press('Tab');
  }
  return max + 1;
}

test('a skip link, first on the page and shown on focus, leads past the navigation to the form', async ({
  page,
}) => {
  const definition = page.getByRole('combobox', { name: 'Job definition' });
  const submitButton = page.getByRole('button', { name: 'Submit job' });
  const skip = page.getByRole('link', { name: 'Skip to content' });
  const opened = async () => {
    await page.goto('/submit');
    await expect(definition).toBeVisible();
  };
  // Through the header and the navigation, as before the link (the figures in the report).
  await opened();
  const tabsToField = await tabsUntilFocused(page, definition, 30);
  const tabsToSubmit = await tabsUntilFocused(page, submitButton, 60);
  const figures = (description: string) =>
    test.info().annotations.push({ type: 'Tabs', description });
  figures(
    `through the navigation: ${tabsToField} to the first field, ${tabsToSubmit} more to Submit`,
  );

  await opened();
  await expect(skip).not.toBeInViewport();
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page, '.skip-link'), colorScheme).toEqual([]);
  }
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  const skippedToField = await tabsUntilFocused(page, definition, 30);
  const skippedToSubmit = await tabsUntilFocused(page, submitButton, 60);
  figures(
    `by the skip link: Tab, Enter, ${skippedToField} to the first field, ${skippedToSubmit} more to Submit`,
  );
  // The header's title link and the navigation's entries are all passed over.
  expect(1 + skippedToField).toBeLessThanOrEqual(4);
  expect(1 + skippedToField).toBeLessThan(tabsToField);
});

test('keyboard only: submit a job, open it, cancel it', async ({ page }) => {
  await page.goto('/submit');
  // From the top of the page, Tab reaches the form's first field.
  const definition = page.getByRole('combobox', { name: 'Job definition' });
  for (
    let i = 0;
    i < 20 && !(await definition.evaluate((el) => el === document.activeElement));
    i++
  )
    await page.keyboard.press('Tab');
  await expect(definition).toBeFocused();
  await page.keyboard.type('demo::sleep:1');
  await page.keyboard.press('Escape'); // close the suggestions
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Job queue' })).toBeFocused();
  await page.keyboard.type('demo::default');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type('keyboard-walk');
  // Enter in a field submits the form, as in any HTML form.
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
  await expectState(page, 'running');

  const cancel = page.getByRole('button', { name: 'Cancel job' });
  for (let i = 0; i < 30 && !(await cancel.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(cancel).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Cancel this job?' });
  await expect(dialog).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Cancel job' });
  for (let i = 0; i < 6 && !(await confirm.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(confirm).toBeFocused();
  await page.keyboard.press('Enter');
  // Pending only while the container stops: `sleep` ends at the SIGTERM, often before a poll.
  await expect(page.getByTestId('cancel-status')).toContainText(
    /Cancellation pending|The cancellation you requested is done/,
  );
  await expectState(page, 'cancelled');
});

test("the log viewer's controls take focus and the table's selection works from the keyboard", async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'Both are extensions.');
  const id = await submitViaApi(page, { job_definition: 'demo::hello:1' });
  await waitForStateViaApi(page, id, 'completed');
  await page.goto(`/jobs/${id}`);
  await expect(page.getByTestId('log-line')).toHaveCount(1);
  // An ended job's: no Follow switch (its output is all there).
  const focusable = ['Timestamps', 'Wrap lines'];
  for (const name of focusable) {
    const control = page.getByRole('switch', { name });
    await control.focus();
    await expect(control).toBeFocused();
  }
  await page.getByTestId('job-logs').focus();
  await expect(page.getByTestId('job-logs')).toBeFocused();
  await page.goto('/jobs');
  const select = page.getByRole('checkbox', { name: /^Select / }).nth(1);
  await select.focus();
  await page.keyboard.press('Space');
  await expect(select).toBeChecked();
  await expect(page.getByTestId('selection-count')).toHaveText('1 selected');
});
