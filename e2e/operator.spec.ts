import type { Request } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  confirmCancel,
  expectState,
  fillBasics,
  openCancelDialog,
  screenshot,
  submitAndOpen,
  submitViaApi,
  unique,
  waitForStateViaApi,
} from './helpers';

test('the overview counts each queue and opens the jobs behind a count', async ({
  page,
  extensions,
}) => {
  await page.goto('/');
  if (!extensions) {
    const note = page.getByTestId('no-queue-view');
    await expect(note).toContainText('This service offers no queue view');
    await note.getByRole('link', { name: 'Open a job by id' }).click();
    await expect(page).toHaveURL(/\/jobs$/);
    await expect(page.getByRole('textbox', { name: 'Open a job by id' })).toBeVisible();
    await page.goto('/');
    await screenshot(page, 'overview-spec-only', { degraded: true });
    return;
  }
  const name = unique('held');
  await submitViaApi(page, { job_definition: 'demo::hello:1', job_queue: 'demo::held', name });
  const held = page.getByTestId('queue-card').and(page.locator('[data-queue="demo::held"]'));
  await expect(held.getByTestId('paused-badge')).toBeVisible();
  await expect(held.getByTestId('slots')).toHaveText('0 of 2 slots in use');
  const runnable = held.getByTestId('count-runnable');
  await expect(runnable).not.toHaveAccessibleName(/^0 /);
  // The job waiting longest is one click away.
  await expect(held.getByTestId('queue-waiting')).toContainText(/^Oldest waiting: \S+ \(waiting /);
  await screenshot(page, 'overview');
  await runnable.click();
  await expect(page).toHaveURL(/\/jobs\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('queue')).toBe('demo::held');
  expect(url.searchParams.getAll('state')).toEqual(['runnable']);
  const table = page.getByRole('table', { name: 'Project jobs' });
  await expect(table.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  // Every row shown is in that queue and state.
  for (const badge of await table.getByTestId('state-badge').all())
    await expect(badge).toHaveAttribute('data-state', 'runnable');
});

test('the jobs table keeps its filters in the URL, across a reload', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'The spec-only run checks the list is absent (console.spec.ts).');
  const prefix = unique('filtered');
  await submitViaApi(page, { job_definition: 'demo::hello:1', name: `${prefix}-a` });
  await submitViaApi(page, {
    job_definition: 'demo::hello:1',
    name: `${prefix}-b`,
    job_queue: 'demo::held',
  });
  await page.goto('/jobs');
  await page.getByRole('textbox', { name: 'Name starts with' }).fill(prefix);
  await page.getByRole('combobox', { name: 'State' }).click();
  await page.getByRole('option', { name: 'runnable', exact: true }).click();
  await page.getByRole('option', { name: 'completed', exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Created' }).click();
  await page.getByRole('option', { name: 'Last hour' }).click();
  await expect(page).toHaveURL(/name=/);
  await expect(page.getByRole('textbox', { name: 'Name starts with' })).toHaveValue(prefix);
  const search = new URL(page.url()).searchParams;
  expect(search.get('name')).toBe(prefix);
  expect(search.getAll('state')).toEqual(['runnable', 'completed']);
  expect(search.get('created')).toBe('1h');

  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Name starts with' })).toHaveValue(prefix);
  await expect(page.getByRole('combobox', { name: 'Created' })).toHaveValue('Last hour');
  const table = page.getByRole('table', { name: 'Project jobs' });
  await expect(table.getByRole('row', { name: new RegExp(`${prefix}-a`) })).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(`${prefix}-b`) })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(3); // the header and the two jobs
  await screenshot(page, 'jobs-filtered');

  // Narrow by queue: only the held job stays, and the URL says so.
  await page.getByRole('combobox', { name: 'Queue' }).fill('demo::held');
  await page.keyboard.press('Escape'); // done typing: the suggestions close
  await expect(page).toHaveURL(/queue=demo%3A%3Aheld/);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row', { name: new RegExp(`${prefix}-b`) })).toBeVisible();
  // Back: the URL before the filter, and the table with it.
  await page.goBack();
  await expect(page).not.toHaveURL(/queue=/);
  await expect(table.getByRole('row')).toHaveCount(3);
});

test('Back at once after a filter restores the view the URL names, every time', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'The spec-only run checks the list is absent (console.spec.ts).');
  const prefix = unique('back');
  await submitViaApi(page, { job_definition: 'demo::hello:1', name: `${prefix}-a` });
  await page.goto(`/jobs?name=${prefix}`);
  const states = page.getByRole('combobox', { name: 'State' });
  let restored = 0;
  for (let round = 0; round < 20; round += 1) {
    await states.click();
    await page.getByRole('option', { name: 'failed', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/state=failed/);
    await page.goBack(); // at once, as the table appears
    await expect(page).toHaveURL(new RegExp(`/jobs\\?name=${prefix}$`));
    // The view is the URL's: no state picked, the job listed. Checked after the page settles.
    await page.waitForTimeout(300);
    const pills = await page.locator('.mantine-MultiSelect-pill').count();
    const rows = await page
      .getByRole('table', { name: 'Project jobs' })
      .getByRole('row', { name: new RegExp(`${prefix}-a`) })
      .count();
    if (pills === 0 && rows === 1 && new URL(page.url()).search === `?name=${prefix}`)
      restored += 1;
  }
  expect(restored).toBe(20);
});

test('bulk cancel says what happens to each job, then how each went', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'Selecting jobs needs the job list; the spec-only run has none.');
  const prefix = unique('bulk');
  const running = await submitViaApi(page, {
    job_definition: 'demo::sleep:1',
    name: `${prefix}-run`,
  });
  const waiting = await submitViaApi(page, {
    job_definition: 'demo::sleep:1',
    job_queue: 'demo::held',
    name: `${prefix}-wait`,
  });
  const done = await submitViaApi(page, {
    job_definition: 'demo::hello:1',
    name: `${prefix}-done`,
  });
  await waitForStateViaApi(page, running, 'running');
  await waitForStateViaApi(page, done, 'completed');
  await page.goto(`/jobs?name=${prefix}`);
  const table = page.getByRole('table', { name: 'Project jobs' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(
    table.locator(`[data-job-id="${running}"]`).getByTestId('state-badge'),
  ).toHaveAttribute('data-state', 'running');
  await page.getByRole('checkbox', { name: 'Select every job on this page' }).check();
  await expect(page.getByTestId('selection-count')).toHaveText('3 selected');
  await page.getByRole('button', { name: 'Cancel selected…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Cancel the selected jobs?' });
  await expect(dialog.getByTestId('plan-immediate')).toContainText(`${prefix}-wait`);
  await expect(dialog.getByTestId('plan-stopping')).toContainText(`${prefix}-run`);
  await expect(dialog.getByTestId('plan-final')).toContainText(`${prefix}-done`);
  await screenshot(page, 'bulk-cancel-plan');
  await dialog.getByRole('button', { name: 'Cancel 2 jobs' }).click();

  // The results say what happened, not still ask the question.
  const answered = page.getByRole('dialog', { name: 'What happened to each job' });
  const results = answered.getByTestId('bulk-cancel-results');
  await expect(results.getByRole('row')).toHaveCount(3);
  await expect(results.locator('[data-result="accepted"]')).toHaveCount(2);
  await screenshot(page, 'bulk-cancel-results');
  await answered.getByRole('button', { name: 'Done' }).click();
  await waitForStateViaApi(page, waiting, 'cancelled');
  await waitForStateViaApi(page, running, 'cancelled');
  // The table follows without a reload.
  await expect(
    table.locator(`[data-job-id="${running}"]`).getByTestId('state-badge'),
  ).toHaveAttribute('data-state', 'cancelled');
});

test('the log viewer follows a running job and keeps the reader’s place', async ({
  page,
  extensions,
}) => {
  test.skip(
    !extensions,
    'Logs are an extension; the spec-only run checks their absence (console.spec.ts).',
  );
  const id = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    container_cmd_parameter: {
      script:
        'i=0; while [ $i -lt 400 ]; do i=$((i+1)); echo "tick $i"; [ $((i % 50)) -eq 0 ] && echo "warn $i" >&2; sleep 0.05; done',
    },
  });
  await page.goto(`/jobs/${id}`);
  await expectState(page, 'running');
  const lines = page.getByTestId('log-line');
  const viewport = page.getByTestId('job-logs');
  // Following: the newest line is in view as output grows.
  await expect(lines.last()).toContainText(/tick (\d{2,})/);
  const followed = Number(/tick (\d+)/.exec((await lines.last().textContent()) ?? '')?.[1]);
  await expect
    .poll(async () => Number(/tick (\d+)/.exec((await lines.last().textContent()) ?? '')?.[1] ?? 0))
    .toBeGreaterThan(followed);
  await screenshot(page, 'job-logs-following');

  // The reader scrolls up: following stops and the place is kept while lines keep coming.
  await viewport.hover();
  await page.mouse.wheel(0, -100_000);
  await expect(page.getByRole('switch', { name: 'Follow' })).not.toBeChecked();
  const top = await lines.first().textContent();
  await page.waitForTimeout(3000);
  expect(await lines.first().textContent()).toBe(top);
  await expect(viewport).toHaveJSProperty('scrollTop', 0);

  // Search jumps to a match; timestamps and stderr are shown.
  await page.getByRole('textbox', { name: 'Search the output' }).fill('warn');
  await page.getByRole('button', { name: 'Next match' }).click();
  await expect(page.getByTestId('log-search-position')).toHaveText(/^1 of \d+$/);
  await expect(
    page.locator('[data-testid="log-line"][data-stream="stderr"] mark').first(),
  ).toHaveText('warn');
  await page.getByRole('switch', { name: 'Timestamps' }).check({ force: true });
  await expect(lines.first()).toContainText(/^\d\d:\d\d:\d\d\.\d{3} /);

  // Following again jumps to the end, and the download holds every line so far.
  await page.getByRole('switch', { name: 'Follow' }).check({ force: true });
  await expectState(page, 'completed', 60_000);
  // The job prints tick 400 then warn 400, but the engine times each stream on its own, so the
  // two may come in either order: both are among the last two lines.
  await expect(page.getByTestId('log-line-count')).toHaveText('408 lines');
  // Polled: following scrolls to the end a frame or two after the count, and the list is
  // virtualized (only the rows in view exist).
  const lastTwo = async () => {
    const shown = await lines.count();
    const texts = [await lines.nth(shown - 2).textContent(), await lines.last().textContent()];
    return texts.map((line) => /(tick|warn) 400$/.exec(line ?? '')?.[1]).sort();
  };
  await expect.poll(lastTwo).toEqual(['tick', 'warn']);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  const file = await (await download).path();
  const { readFileSync } = await import('node:fs');
  const text = readFileSync(file, 'utf8');
  expect(text.trimEnd().split('\n')).toHaveLength(408);
  expect(text).toMatch(
    /(Z stdout tick 400\n\S+Z stderr warn 400|Z stderr warn 400\n\S+Z stdout tick 400)\n$/,
  );
});

test('the jobs table updates live from the event stream, and polls when it is down', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'The spec-only run has no list to update.');
  const prefix = unique('live');
  const listReads: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/v1/client/jobs') listReads.push(request);
  });
  await page.goto(`/jobs?name=${prefix}`);
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'live');
  await expect(page.getByTestId('no-jobs')).toBeVisible();
  const id = await submitViaApi(page, { job_definition: 'demo::hello:1', name: `${prefix}-1` });
  const row = page.locator(`[data-job-id="${id}"]`);
  await expect(row.getByTestId('state-badge')).toHaveAttribute('data-state', 'completed');
  await expect(row.getByTestId('exit-code')).toHaveText('0');
  // Idle with the stream up: no list reads at all.
  const before = listReads.length;
  await page.waitForTimeout(8000);
  expect(listReads.length).toBe(before);

  // The stream goes away: the page says so and polls, still showing new jobs.
  await page.route('**/v1/client/events', (route) => route.abort('connectionrefused'));
  await page.reload();
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-status', 'down');
  const second = await submitViaApi(page, { job_definition: 'demo::hello:1', name: `${prefix}-2` });
  await expect(
    page.locator(`[data-job-id="${second}"]`).getByTestId('state-badge'),
  ).toHaveAttribute('data-state', 'completed');
});

test('submit, watch and cancel use only the spec’s three operations where the service has no more', async ({
  page,
  extensions,
}) => {
  const calls = new Set<string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/'))
      calls.add(`${request.method()} ${url.pathname.replace(/[0-9a-f-]{36}/, '{id}')}`);
  });
  await fillBasics(page, 'demo::sleep:1');
  const id = await submitAndOpen(page);
  await expectState(page, 'running');
  await confirmCancel(await openCancelDialog(page));
  await expectState(page, 'cancelled');
  expect(page.url()).toContain(id);
  const spec = [
    'POST /v1/client/job',
    'GET /v1/client/job/{id}',
    'POST /v1/client/job/{id}/cancel',
  ];
  for (const call of spec) expect(calls).toContain(call);
  if (!extensions) {
    // Beyond the three: only the one-time detection (the document, else the list probes) and
    // the console's session (404 where the service has no sign-in).
    const detection = [
      'GET /v1/auth/session',
      'GET /v1/openapi.json',
      'GET /v1/client/events',
      'GET /v1/client/jobs',
      'GET /v1/client/queues',
    ];
    expect([...calls].filter((call) => !spec.includes(call) && !detection.includes(call))).toEqual(
      [],
    );
    expect(calls).toContain('GET /v1/openapi.json');
  }
});
