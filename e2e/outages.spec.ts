// The console through outages: the service stopped and started again under open pages, a page's
// chunk gone after an upgrade, the container engine unreachable. Each test drives a service of
// its own (the suite's services are never stopped), the full project's on a dockerd of its own.
import type { Page } from '@playwright/test';
import { freePort } from '../test/support/free-port';
import { PrivateEngine } from '../test/support/private-engine';
import { RUN_LABEL, TEST_IMAGE, startService, type TestService } from '../test/support/service';
import { auditBothThemes } from './axe';
import { expect, test } from './fixtures';
import { expectState, screenshot } from './helpers';

let engine: PrivateEngine | undefined;
let service: TestService | undefined;
let consoleUrl = '';

test.beforeAll(async ({ extensions }) => {
  test.setTimeout(180_000);
  // Only the full service says how the engine is: the spec-only one runs on the machine's engine.
  if (extensions) {
    engine = new PrivateEngine();
    await engine.start();
  }
  const consolePort = await freePort();
  service = await startService(
    {
      extensions,
      projects: {
        demo: {
          queues: { default: { max_running: 4 } },
          definitions: {
            sleep: {
              '1': {
                image: TEST_IMAGE,
                command: ['sleep', 'Param::seconds'],
                parameters: { seconds: '120' },
                stop_grace_seconds: 1,
              },
            },
          },
        },
      },
      // e2e/global-teardown.ts removes what is left of these.
      container_labels: { [RUN_LABEL]: 'e2e' },
      reconcile_interval_seconds: 1,
      ...(engine ? { engine: { type: 'docker', socket: engine.socket } } : {}),
    },
    undefined,
    { withConsole: true, consolePort },
  );
  consoleUrl = `http://127.0.0.1:${consolePort}`;
});

test.afterAll(async () => {
  await service?.stop();
  await engine?.destroy();
});

async function submitSleep(page: Page): Promise<string> {
  const response = await page.request.post(`${consoleUrl}/v1/client/job`, {
    data: { job_definition: 'demo::sleep:1', job_queue: 'demo::default' },
  });
  expect(response.status(), await response.text()).toBe(202);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

const navigation = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('a stopped service: pages say since when it cannot be reached, and recover by themselves once it is back', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const id = await submitSleep(page);
  await page.goto(`${consoleUrl}/jobs/${id}`);
  await expectState(page, 'running');
  // The jobs table's code is loaded; the overview's is not, as in any tab opened on a job.
  await navigation(page).getByRole('link', { name: 'Jobs', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
  await expect(page.getByText(/^sleep-/).first()).toBeVisible();

  await service!.stop();
  // The table keeps its rows and says they may be stale, above the content.
  const notice = page.getByTestId('service-unreachable');
  await expect(notice).toHaveText(
    /^Cannot reach the service since \d\d:\d\d:\d\d; retrying\. What the page shows may be out of date\.$/,
    { timeout: 30_000 },
  );
  await expect(page.getByText(/^sleep-/).first()).toBeVisible();
  await page
    .getByText(/^sleep-/)
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${id}$`));
  await expectState(page, 'running');
  await expect(notice).toBeVisible({ timeout: 15_000 });

  // A page whose code was never fetched: said in words inside the shell, not React Router's
  // developer page, with the navigation kept.
  await navigation(page).getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByTestId('page-load-failed')).toHaveText(
    /^This page could not be loaded: the service cannot be reached \(since \d\d:\d\d:\d\d\)\. Retrying every 3 s/,
    { timeout: 15_000 },
  );
  await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
  await expect(navigation(page).getByRole('link', { name: 'Jobs', exact: true })).toBeVisible();
  await screenshot(page, 'page-service-unreachable');
  await auditBothThemes(page, 'a page that could not be loaded');

  // Back: the page appears without a reload, and the notice goes.
  await service!.restart();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible({ timeout: 30_000 });
  await expect(notice).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('page-load-failed')).toHaveCount(0);
  await page.request.post(`${consoleUrl}/v1/client/job/${id}/cancel`);
});

/** Serves the console's HTML where a chunk was, as the console server does for a file it lacks. */
async function chunkGone(page: Page, stillGone: () => boolean) {
  await page.route('**/assets/OverviewPage-*.js', async (route) =>
    stillGone()
      ? route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html>' })
      : route.continue(),
  );
}

test('a chunk renamed by an upgrade: the page reloads once and shows; never a reload loop', async ({
  page,
}) => {
  test.setTimeout(120_000);
  let loads = 0;
  page.on('load', () => (loads += 1));
  await page.goto(`${consoleUrl}/jobs`);
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
  // The new build has the overview under another name: the old one is gone until the page is
  // reloaded (and then asks for the new one).
  await chunkGone(page, () => loads < 2);
  await navigation(page).getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible({ timeout: 30_000 });
  expect(loads).toBe(2);
  // The marker that stops a loop holds a time, nothing else.
  expect(await page.evaluate(() => sessionStorage.getItem('jobdeck.chunk-reload-at'))).toMatch(
    /^\d+$/,
  );

  // A build that lacks the chunk even after the reload: one reload, then words and a button.
  await page.unroute('**/assets/OverviewPage-*.js');
  await page.evaluate(() => sessionStorage.removeItem('jobdeck.chunk-reload-at'));
  await page.goto(`${consoleUrl}/jobs`);
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
  const before = loads;
  await chunkGone(page, () => true);
  await navigation(page).getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByTestId('page-load-failed')).toContainText(
    'could not be loaded although the service answers',
    { timeout: 30_000 },
  );
  await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
  await page.waitForTimeout(5000);
  expect(loads - before).toBe(1);
  await expect(navigation(page).getByRole('link', { name: 'Jobs', exact: true })).toBeVisible();
  await auditBothThemes(page, 'a page missing from the build');
});

test('the container engine unreachable: the header and the overview say since when, and that dispatch is paused', async ({
  page,
  extensions,
}) => {
  test.setTimeout(180_000);
  await page.goto(`${consoleUrl}/`);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  const badge = page.getByTestId('engine-health-badge');
  if (!extensions) {
    // A service speaking only the spec says nothing of its engine: nothing is claimed.
    await expect(page.getByTestId('no-queue-view')).toBeVisible();
    await expect(page.getByTestId('engine-health')).toHaveCount(0);
    await expect(badge).toHaveCount(0);
    return;
  }
  await expect(page.getByTestId('engine-health')).toHaveText(
    'The container engine (docker) answers; dispatch is running.',
  );
  await expect(badge).toHaveCount(0);

  await engine!.stop('SIGTERM');
  const id = await submitSleep(page);
  await expect(badge).toHaveText(/^engine unreachable since \d\d:\d\d:\d\d · dispatch paused$/, {
    timeout: 30_000,
  });
  await expect(page.getByTestId('engine-health')).toContainText(
    /The container engine \(docker\) has not answered since \d\d:\d\d:\d\d\. Dispatch is paused: no job starts/,
  );
  await screenshot(page, 'overview-engine-unreachable');
  await auditBothThemes(page, 'the overview with the engine unreachable');
  // Every page says it in its header.
  await page.goto(`${consoleUrl}/jobs/${id}`);
  await expectState(page, 'runnable');
  await expect(badge).toBeVisible();

  await engine!.start();
  await expect(badge).toHaveCount(0, { timeout: 30_000 });
  await expectState(page, 'running', 60_000);
  await page.request.post(`${consoleUrl}/v1/client/job/${id}/cancel`);
});
