import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/chromium';
import type { TestService } from '../../test/support/service';
import { BENCH_WAIT_MS } from '../jobdeck-client';
import { submit, waitForState } from '../../test/support/jobs';
import { sleep } from '../stats';

/** Requests to /v1 that one open job page makes per minute, while the job runs and after it ends. */
export async function watchedJobCost(service: TestService, windowSeconds: number) {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage();
    let requests = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v1/')) requests += 1;
    });
    const id = await submit(service, { job_definition: 'b::sleep:1', job_queue: 'b::fast' });
    await waitForState(service, id, ['running'], BENCH_WAIT_MS, 20);
    await page.goto(`${service.consoleUrl()}/jobs/${id}`);
    await page.getByTestId('state-badge').first().waitFor();
    requests = 0;
    await sleep(windowSeconds * 1000);
    const active = requests;
    await service.request('POST', `/v1/client/job/${id}/cancel`);
    await waitForState(service, id, ['cancelled'], BENCH_WAIT_MS, 20);
    await page
      .getByTestId('state-badge')
      .first()
      .and(page.locator('[data-state="cancelled"]'))
      .waitFor();
    requests = 0;
    await sleep(windowSeconds * 1000);
    const ended = requests;
    const perMinute = (count: number) => Math.round((count * 60) / windowSeconds);
    return {
      whileActivePerMinute: perMinute(active),
      afterEndPerMinute: perMinute(ended),
      windowSeconds,
    };
  } finally {
    await browser.close();
  }
}
