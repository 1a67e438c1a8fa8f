import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/chromium';
import type { TestService } from '../../test/support/service';
import { submit, waitForState } from '../../test/support/jobs';
import { BENCH_WAIT_MS } from '../jobdeck-client';
import { percentile, round, sleep } from '../stats';

/** Counts the page's requests to /v1 from now on. */
function countApiRequests(page: Page) {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/v1/')) count += 1;
  });
  return { reset: () => (count = 0), read: () => count };
}

/**
 * Requests an idle open jobs table makes: with the event stream up (the stream itself was opened
 * before the window) and with the stream refused, when the table polls and retries the stream.
 */
export async function idleJobsTableCost(service: TestService, windowSeconds: number) {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const measure = async (streamDown: boolean) => {
      const page = await browser.newPage();
      if (streamDown)
        await page.route('**/v1/client/events', (route) => route.abort('connectionrefused'));
      const requests = countApiRequests(page);
      await page.goto(`${service.consoleUrl()}/jobs`);
      await page
        .getByTestId('live-status')
        .and(page.locator(`[data-status="${streamDown ? 'down' : 'live'}"]`))
        .waitFor({ timeout: 30_000 });
      await page.getByRole('table', { name: 'Project jobs' }).waitFor();
      await sleep(2000); // the reads that follow the stream's opening
      requests.reset();
      await sleep(windowSeconds * 1000);
      const count = requests.read();
      await page.close();
      return { requests: count, perFiveSeconds: round((count / windowSeconds) * 5, 2) };
    };
    return { windowSeconds, streamUp: await measure(false), streamDown: await measure(true) };
  } finally {
    await browser.close();
  }
}

/**
 * A job printing about 1,000 lines a second, followed on its page: the gaps between animation
 * frames (a frame every 16.7 ms is smooth; the main thread busy shows as longer gaps), long tasks
 * (> 50 ms), and how many lines the viewer took in.
 */
export async function followedLogFrames(service: TestService, windowSeconds: number) {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const id = await submit(service, { job_definition: 'b::chatty:1', job_queue: 'b::fast' });
    await waitForState(service, id, ['running'], BENCH_WAIT_MS, 20);
    await page.goto(`${service.consoleUrl()}/jobs/${id}`);
    await page.getByTestId('log-line').first().waitFor({ timeout: 30_000 });
    const lineCount = async () =>
      Number(
        /^(\d+)/.exec((await page.getByTestId('log-line-count').textContent()) ?? '')?.[1] ?? 0,
      );
    const linesBefore = await lineCount();
    // A string, not a function: tsx names the bench's functions with a helper (__name) that
    // the page does not have.
    const samples = (await page.evaluate(`(async (ms) => {
      const gaps = [];
      const longTasks = [];
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) longTasks.push(entry.duration);
      });
      observer.observe({ type: 'longtask', buffered: false });
      await new Promise((done) => {
        const end = performance.now() + ms;
        let last = performance.now();
        const frame = (now) => {
          gaps.push(now - last);
          last = now;
          if (now < end) requestAnimationFrame(frame);
          else done();
        };
        requestAnimationFrame(frame);
      });
      observer.disconnect();
      return { gaps, longTasks };
    })(${windowSeconds * 1000})`)) as { gaps: number[]; longTasks: number[] };
    const linesTaken = (await lineCount()) - linesBefore;
    const following = await page.getByRole('switch', { name: 'Follow' }).isChecked();
    await service.request('POST', `/v1/client/job/${id}/cancel`);
    const gaps = samples.gaps.sort((a, b) => a - b);
    return {
      windowSeconds,
      linesPerSecond: Math.round(linesTaken / windowSeconds),
      stillFollowing: following,
      frames: gaps.length,
      frameGapMs: {
        p50: round(percentile(gaps, 50)),
        p95: round(percentile(gaps, 95)),
        p99: round(percentile(gaps, 99)),
        max: round(gaps.at(-1) ?? 0),
      },
      longTasks: samples.longTasks.length,
      longTaskMs: Math.round(samples.longTasks.reduce((sum, d) => sum + d, 0)),
    };
  } finally {
    await browser.close();
  }
}

/** What the bench uses of Lighthouse, which is installed only to run the bench (see its step). */
type Lighthouse = (
  url: string,
  flags: Record<string, unknown>,
) => Promise<
  { lhr: { categories: Record<string, { score: number | null } | undefined> } } | undefined
>;

/** Lighthouse's accessibility and best-practices scores for each page, in Debian's Chromium. */
export async function lighthouseScores(service: TestService) {
  const lighthouseModule: string = 'lighthouse';
  const lighthouse = ((await import(lighthouseModule)) as { default: Lighthouse }).default;
  const port = 19_222;
  const browser = await chromium.launch({
    ...chromiumLaunchOptions,
    args: [...chromiumLaunchOptions.args, `--remote-debugging-port=${port}`],
  });
  try {
    const id = await submit(service, { job_definition: 'b::true:1', job_queue: 'b::fast' });
    await waitForState(service, id, ['completed'], BENCH_WAIT_MS, 20);
    const pages = {
      overview: '/',
      submit: '/submit',
      jobs: '/jobs',
      job: `/jobs/${id}`,
      settings: '/settings',
    };
    const scores: Record<string, { accessibility: number; bestPractices: number }> = {};
    for (const [name, path] of Object.entries(pages)) {
      const result = await lighthouse(`${service.consoleUrl()}${path}`, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['accessibility', 'best-practices'],
        formFactor: 'desktop',
        screenEmulation: {
          mobile: false,
          width: 1350,
          height: 940,
          deviceScaleFactor: 1,
          disabled: false,
        },
      });
      const categories = result!.lhr.categories;
      scores[name] = {
        accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
        bestPractices: Math.round((categories['best-practices']?.score ?? 0) * 100),
      };
    }
    return scores;
  } finally {
    await browser.close();
  }
}

/** The page counts as loaded once no file was asked for or arrived for this long. */
const QUIET_MS = 2000;
const MOST_MS = 30_000;

/** A link slower than loopback, where bytes cost time: 20 Mbit/s down, 5 up, 40 ms RTT. */
const BROADBAND = {
  offline: false,
  latency: 40,
  downloadThroughput: (20_000_000 / 8) | 0,
  uploadThroughput: (5_000_000 / 8) | 0,
};

/**
 * What a real Chromium receives on a first load of the overview (empty cache): the bytes on the
 * wire (encodedDataLength, headers included) of the console's files, and the time to the load
 * event, on loopback and on a throttled broadband link.
 */
export async function firstLoadTransfer(consoleUrl: string) {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const load = async (throttled: boolean) => {
      const context = await browser.newContext(); // a fresh, empty cache
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      if (throttled) await cdp.send('Network.emulateNetworkConditions', BROADBAND);
      const isFile = (url: string) => !new URL(url).pathname.startsWith('/v1/');
      // The API's answers are not the console's files (and its event stream never ends).
      const pending = new Set<string>();
      let bytes = 0;
      let lastActivity = performance.now();
      cdp.on('Network.requestWillBeSent', (event) => {
        if (!isFile(event.request.url)) return;
        pending.add(event.requestId);
        lastActivity = performance.now();
      });
      const ended = (requestId: string, encoded = 0) => {
        if (!pending.delete(requestId)) return;
        bytes += encoded;
        lastActivity = performance.now();
      };
      cdp.on('Network.loadingFinished', (event) => ended(event.requestId, event.encodedDataLength));
      cdp.on('Network.loadingFailed', (event) => ended(event.requestId));
      const began = performance.now();
      await page.goto(consoleUrl, { waitUntil: 'load' });
      const loadMs = await page.evaluate(
        () => performance.getEntriesByType('navigation')[0]!.toJSON().loadEventEnd as number,
      );
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      // The chunks the page imports once it runs and its reads have answered (the chart's).
      while (
        (pending.size > 0 || performance.now() - lastActivity < QUIET_MS) &&
        performance.now() - began < MOST_MS
      )
        await sleep(100);
      await context.close();
      return { KiB: Math.round(bytes / 102.4) / 10, loadMs: Math.round(loadMs) };
    };
    return { loopback: await load(false), broadband: await load(true) };
  } finally {
    await browser.close();
  }
}
