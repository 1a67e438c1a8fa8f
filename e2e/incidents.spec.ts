// Incident windows on the overview's trends, from a real service of this file's own: a queue
// paused and resumed through the API, and the engine made unreachable for this service only (its
// socket cut, test/support/engine-link.ts). Each window is shaded behind the bars, listed in words,
// and links to the Failures page of exactly the jobs it counts.
import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import type { TrendIncident, Trends } from '../contract';
import { JOB_LABEL } from '../server/runtime/job-container';
import { EngineLink } from '../test/support/engine-link';
import { freePort } from '../test/support/free-port';
import { RUN_LABEL, startService, type TestService } from '../test/support/service';
import { auditBothThemes } from './axe';
import { expect, test } from './fixtures';
import { screenshot } from './helpers';

const link = new EngineLink();
let service: TestService | undefined;
let consoleUrl = '';

test.beforeAll(async ({ extensions }) => {
  test.skip(!extensions, 'trends and their incidents are extensions');
  test.setTimeout(180_000);
  await link.open();
  const consolePort = await freePort();
  service = await startService(
    {
      engine: { type: 'docker', socket: link.path },
      // e2e/global-teardown.ts removes what is left of these.
      container_labels: { [RUN_LABEL]: 'e2e' },
      reconcile_interval_seconds: 1,
    },
    undefined,
    { withConsole: true, consolePort },
  );
  consoleUrl = `http://127.0.0.1:${consolePort}`;
});

test.afterAll(async () => {
  // Nothing was started where the spec-only run skipped the file.
  if (!service) return;
  await service.stop();
  await link.cut();
});

async function api(page: Page, method: 'get' | 'post', path: string, data?: unknown) {
  const response = await page.request[method](`${consoleUrl}${path}`, { data });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { data: unknown }).data;
}

async function submit(page: Page, definition: string, queue: string): Promise<string> {
  const job = await api(page, 'post', '/v1/client/job', {
    job_definition: definition,
    job_queue: queue,
  });
  return (job as { id: string }).id;
}

async function waitForState(page: Page, id: string, state: string) {
  await expect
    .poll(
      async () => ((await api(page, 'get', `/v1/client/job/${id}`)) as { state: string }).state,
      {
        timeout: 60_000,
      },
    )
    .toBe(state);
}

/** `docker kill` or `docker rm -f` on the job's running container, behind the service's back. */
function docker(command: 'kill' | 'rm', id: string) {
  const container = execFileSync('docker', ['ps', '-q', '--filter', `label=${JOB_LABEL}=${id}`])
    .toString()
    .trim();
  expect(container, `the container of ${id}`).not.toBe('');
  execFileSync('docker', command === 'rm' ? ['rm', '-f', container] : ['kill', container], {
    stdio: 'ignore',
  });
}

const incidentsOf = async (page: Page, queue: string) =>
  ((await api(page, 'get', `/v1/client/trends?queue=${queue}`)) as Trends).incidents ?? [];

/** The overview's trends of `queue`, loaded afresh. */
async function openTrends(page: Page, queue: string) {
  await page.goto(`${consoleUrl}/`);
  const section = page.getByRole('region', { name: 'Trends' });
  const picker = section.getByRole('combobox', { name: 'Queue' });
  if ((await picker.inputValue()) !== queue) {
    await picker.click();
    await page.getByRole('option', { name: queue, exact: true }).click();
  }
  await expect(picker).toHaveValue(queue);
  return section;
}

/** The chart's shaded windows of one kind: drawn, and as wide as a bar at least. */
async function expectShaded(page: Page, color: 'red' | 'yellow', count: number) {
  const areas = page
    .getByTestId('trends-chart')
    .locator(`.recharts-reference-area-rect[fill="var(--mantine-color-${color}-5)"]`);
  await expect(areas).toHaveCount(count);
  for (const area of await areas.all()) {
    const box = await area.boundingBox();
    expect(box?.width, `a ${color} window's width`).toBeGreaterThan(5);
    expect(box?.height, `a ${color} window's height`).toBeGreaterThan(50);
  }
}

/** Follows a window's link and checks the Failures page holds `id` and nothing else. */
async function expectFailuresOfExactly(
  page: Page,
  incident: TrendIncident,
  id: string,
  cause: RegExp,
) {
  await expect(page).toHaveURL(/\/failures\?/);
  const search = new URL(page.url()).searchParams;
  expect(Object.fromEntries(search)).toEqual({
    state: 'error',
    queue: incident.errors_filter.queue,
    ended_after: incident.errors_filter.ended_after,
    ended_before: incident.errors_filter.ended_before,
  });
  await expect(page.getByTestId('failures-examined')).toHaveText('1 job grouped.');
  const group = page.getByTestId('failure-group');
  await expect(group).toHaveCount(1);
  await expect(group).toHaveAccessibleName(cause);
  await expect(group.getByRole('link', { name: '1 job' })).toHaveAttribute(
    'href',
    `/jobs?id=${id}`,
  );
}

test('a paused queue and an unreachable engine: shaded on the chart, listed, and linked to the jobs they ended error', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // A job that ended error before the pause: the window neither counts nor lists it.
  const before = await submit(page, 't::ghost:1', 't::default');
  await waitForState(page, before, 'error');

  const lost = await submit(page, 't::sleep:1', 't::default');
  await waitForState(page, lost, 'running');
  await api(page, 'post', '/v1/client/queues/t::default/pause', { reason: 'storage maintenance' });
  // Its container removed behind the service's back during the pause.
  docker('rm', lost);
  await waitForState(page, lost, 'error');
  await api(page, 'post', '/v1/client/queues/t::default/resume');
  // An engine window opens up to two seconds (a reconcile interval and one) before the cut is
  // found: cut later than that after this job ended, so that the outage does not count it too.
  const lostEnded = Date.parse(
    ((await api(page, 'get', `/v1/client/job/${lost}`)) as { updated_at: string }).updated_at,
  );
  await page.waitForTimeout(Math.max(0, lostEnded + 3_000 - Date.now()));

  // The engine cut while a job of another queue runs; its container dies meanwhile.
  const killed = await submit(page, 't::sleep:1', 't::single');
  await waitForState(page, killed, 'running');
  await link.cut();
  docker('kill', killed);
  await expect
    .poll(async () => (await incidentsOf(page, 't::single')).map((i) => i.kind), {
      timeout: 30_000,
    })
    .toEqual(['engine_unreachable']);
  await link.open();
  await waitForState(page, killed, 'error');
  await expect
    .poll(async () => (await incidentsOf(page, 't::single'))[0]?.ended_at ?? null, {
      timeout: 30_000,
    })
    .not.toBeNull();

  // The paused queue: both windows, the pause's with its reason and its one job.
  const paused = await incidentsOf(page, 't::default');
  expect(paused.map((i) => [i.kind, i.ended_error])).toEqual([
    ['queue_paused', 1],
    ['engine_unreachable', 0],
  ]);
  const section = await openTrends(page, 't::default');
  const rows = section.getByTestId('trends-incident');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveText(
    /^Queue paused · \w{3} \d+ \d\d:\d\d – \w{3} \d+ \d\d:\d\d \(.+\) · storage maintenance · 1 job ended error: review and retry it$/,
  );
  await expect(rows.nth(1)).toHaveText(
    /^Container engine unreachable · \w{3} \d+ \d\d:\d\d – \w{3} \d+ \d\d:\d\d \(.+\)$/,
  );
  await expectShaded(page, 'yellow', 1);
  await expectShaded(page, 'red', 1);
  await auditBothThemes(page, 'the trends with incidents', '[data-testid="trends"]');
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, 'overview-trends-incidents');
  await rows.nth(0).getByRole('link', { name: 'review and retry it' }).click();
  await expectFailuresOfExactly(page, paused[0]!, lost, /^1 job · error · the container vanished/);

  // The other queue: the outage alone, with the job it ended error.
  const single = await incidentsOf(page, 't::single');
  expect(single.map((i) => [i.kind, i.ended_error])).toEqual([['engine_unreachable', 1]]);
  const other = await openTrends(page, 't::single');
  const outage = other.getByTestId('trends-incident');
  await expect(outage).toHaveText(
    /^Container engine unreachable · .+ · 1 job ended error: review and retry it$/,
  );
  await expectShaded(page, 'red', 1);
  await expectShaded(page, 'yellow', 0);
  await outage.getByRole('link', { name: 'review and retry it' }).click();
  await expectFailuresOfExactly(
    page,
    single[0]!,
    killed,
    /^1 job · exit \d+ · .*while the container engine was stopped or unreachable/,
  );
});
