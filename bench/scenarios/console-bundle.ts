import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/chromium';
import { sleep } from '../stats';

const DIST = resolve(import.meta.dirname, '..', '..', 'dist', 'console');

/** Gzipped bytes of what the first page load fetches: the entry script, its preloads and CSS. */
export function initialBundleSize() {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  const size = (ext: string) =>
    assets
      .filter((a) => a.endsWith(ext))
      .reduce((sum, a) => sum + gzipSync(readFileSync(join(DIST, a))).length, 0);
  return {
    jsGzipKiB: Math.round(size('.js') / 102.4) / 10,
    cssGzipKiB: Math.round(size('.css') / 102.4) / 10,
  };
}

const SETTLE_MS = 2000;

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
      const urls = new Map<string, string>();
      let bytes = 0;
      cdp.on('Network.responseReceived', (event) => urls.set(event.requestId, event.response.url));
      cdp.on('Network.loadingFinished', (event) => {
        const url = urls.get(event.requestId);
        // The API's answers are not the console's files (and its event stream never ends).
        if (url !== undefined && !new URL(url).pathname.startsWith('/v1/'))
          bytes += event.encodedDataLength;
      });
      await page.goto(consoleUrl, { waitUntil: 'load' });
      const loadMs = await page.evaluate(
        () => performance.getEntriesByType('navigation')[0]!.toJSON().loadEventEnd as number,
      );
      await sleep(SETTLE_MS); // the chunks the page imports once it runs
      await context.close();
      return { KiB: Math.round(bytes / 102.4) / 10, loadMs: Math.round(loadMs) };
    };
    return { loopback: await load(false), broadband: await load(true) };
  } finally {
    await browser.close();
  }
}
