import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../contract';
import { startService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startService({}, undefined, { withConsole: true });
}, 120_000);
afterAll(() => service.stop());

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** node:http, because fetch will not send a Host header of our choosing. */
function send(method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  const url = new URL(path, service.consoleUrl());
  return new Promise((done, fail) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        done({ status: response.statusCode ?? 0, headers: response.headers, text }),
      );
    });
    request.on('error', fail);
    request.end();
  });
}

const ownHost = () => new URL(service.consoleUrl()).host;

describe('the console page', () => {
  it('has a CSP with a fresh nonce per response and no inline script, and the other headers', async () => {
    const first = await send('GET', '/jobs/some-id', { host: ownHost() });
    const second = await send('GET', '/', { host: ownHost() });
    expect(first.status).toBe(200);
    const policy = String(first.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(first.text).toContain(`nonce="${nonce}"`);
    expect(first.text).not.toContain('JOBDECK_CSP_NONCE');
    expect(String(second.headers['content-security-policy'])).not.toContain(nonce);
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    expect(first.headers['cache-control']).toBe('no-store');
  });

  it('passes the API headers through on /v1', async () => {
    const answer = await send('GET', '/v1/client/jobs', { host: ownHost() });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
  });
});

/** The bytes as they came over the wire, still encoded. */
function fetchBytes(path: string, headers: Record<string, string>) {
  const url = new URL(path, service.consoleUrl());
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>(
    (done, fail) => {
      const request = httpRequest(url, { headers: { host: ownHost(), ...headers } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          done({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      });
      request.on('error', fail);
      request.end();
    },
  );
}

const DIST = resolve(import.meta.dirname, '..', '..', 'dist', 'console');
const DECODE: Record<string, (bytes: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  identity: (bytes) => bytes,
};

describe("the console's assets", () => {
  it('are sent precompressed by Accept-Encoding (br > gzip > identity), hashed ones cached for good', async () => {
    const page = await send('GET', '/', { host: ownHost(), 'accept-encoding': 'gzip, br' });
    expect(page.headers['cache-control']).toBe('no-store'); // an upgrade is picked up at once
    const firstLoad = [...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(firstLoad.some((path) => path.endsWith('.js'))).toBe(true);
    expect(firstLoad.some((path) => path.endsWith('.css'))).toBe(true);
    const cases: [string | undefined, string][] = [
      ['gzip, deflate, br, zstd', 'br'], // what Chromium sends
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip;q=1', 'gzip'],
      ['identity', 'identity'],
      [undefined, 'identity'],
    ];
    for (const path of firstLoad) {
      const file = readFileSync(join(DIST, path));
      for (const [accepted, expected] of cases) {
        const answer = await fetchBytes(path, accepted ? { 'accept-encoding': accepted } : {});
        const label = `${path} with ${accepted ?? 'no Accept-Encoding'}`;
        expect(answer.status, label).toBe(200);
        expect(answer.headers['content-encoding'] ?? 'identity', label).toBe(expected);
        expect(answer.headers.vary, label).toMatch(/accept-encoding/i);
        expect(answer.headers['cache-control'], label).toBe('public, max-age=31536000, immutable');
        expect(answer.headers['content-type'], label).toMatch(
          path.endsWith('.js') ? /^(text|application)\/javascript/ : /^text\/css/,
        );
        expect(DECODE[expected]!(answer.body).equals(file), label).toBe(true);
        if (expected !== 'identity') expect(answer.body.length, label).toBeLessThan(file.length);
      }
    }
  });

  it('revalidates the files whose names do not change, and serves no twin by its own name', async () => {
    const icon = await fetchBytes('/favicon.svg', { 'accept-encoding': 'br' });
    expect(icon.status).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
    const twin = await send('GET', '/favicon.svg.br', { host: ownHost() });
    expect(twin.headers['content-type']).toMatch(/^text\/html/); // the SPA's page, not the file
    expect(twin.headers['content-encoding']).toBeUndefined();
  });
});

describe('the proxy cannot be driven by other sites', () => {
  it('answers 421 to a foreign Host (DNS rebinding), before using its key', async () => {
    for (const path of ['/', '/v1/client/jobs']) {
      const answer = await send('GET', path, { host: 'attacker.example:8081' });
      expect(answer.status).toBe(421);
      expect(errorBodySchema.parse(JSON.parse(answer.text)).message).toMatch(
        /^Host: this console answers only to /,
      );
    }
    expect(
      (await send('GET', '/', { host: `localhost:${new URL(service.consoleUrl()).port}` })).status,
    ).toBe(200);
  });

  it('refuses cross-site writes (Origin, Sec-Fetch-Site) and forwards same-origin ones', async () => {
    const id = 'a0000000-0000-4000-8000-000000000000';
    const cancel = (headers: Record<string, string>) =>
      send('POST', `/v1/client/job/${id}/cancel`, { host: ownHost(), ...headers });
    const crossSite: Record<string, string>[] = [
      { origin: 'http://attacker.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: `http://${ownHost()}` },
      { referer: 'http://attacker.example/page' },
    ];
    for (const headers of crossSite) {
      const answer = await cancel(headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(errorBodySchema.parse(JSON.parse(answer.text)).message).toMatch(
        /^(Origin|Sec-Fetch-Site|Referer): /,
      );
    }
    // Same origin, and a client that is no browser: forwarded with the console's key (the job is unknown).
    const forwarded: Record<string, string>[] = [
      { origin: `http://${ownHost()}`, 'sec-fetch-site': 'same-origin' },
      {},
    ];
    for (const headers of forwarded) {
      const answer = await cancel(headers);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.text)).toEqual({
        ok: false,
        message: `job_id: no job "${id}" in this project`,
      });
    }
  });
});

describe('the proxy and other sites, by any method', () => {
  it("refuses another site's reads and event streams (key, rate limit and stream slots stay the console's)", async () => {
    const crossSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'http://attacker.example' },
      { referer: 'http://attacker.example/page' },
    ];
    for (const path of ['/v1/client/jobs', '/v1/client/events', '/v1/client/queues']) {
      for (const headers of crossSite) {
        const answer = await send('GET', path, { host: ownHost(), ...headers });
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(errorBodySchema.parse(JSON.parse(answer.text)).message).toMatch(
          /^(Origin|Sec-Fetch-Site|Referer): /,
        );
      }
    }
    const own = await send('GET', '/v1/client/jobs', {
      host: ownHost(),
      'sec-fetch-site': 'same-origin',
    });
    expect(own.status).toBe(200);
  });

  it('still serves its pages to a link from another site (no key is involved)', async () => {
    const page = await send('GET', '/jobs', {
      host: ownHost(),
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    });
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toContain('text/html');
  });
});

describe("the proxy's key behind a reverse proxy with basic auth", () => {
  it("replaces the browser's Basic credentials with its key, and lets a typed Bearer key through", async () => {
    const basic = await send('GET', '/v1/client/jobs', {
      host: ownHost(),
      authorization: `Basic ${Buffer.from('operator:pass').toString('base64')}`,
    });
    expect(basic.status, basic.text).toBe(200);
    const typed = await send('GET', '/v1/client/jobs', {
      host: ownHost(),
      authorization: 'Bearer jd_not-a-real-key',
    });
    expect(typed.status).toBe(401);
  });
});
