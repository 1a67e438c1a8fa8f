import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_ROLES, errorBodySchema } from '../../contract';
import { CLOSE_GRACE_MS } from '../../server/http/hardening';
import { rawExchange, requestHead } from '../support/raw-http';
import { startService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  // Short timeouts so that each cut is quick to see; the reliability suite checks the defaults.
  service = await startService({
    http_timeouts: { headers_seconds: 1, request_seconds: 2, keep_alive_seconds: 1 },
    auth_failures_per_minute: 3,
  });
});
afterAll(() => service.stop());

const auth = () => `Authorization: Bearer ${service.key}`;

function expectEnvelope(body: unknown, message: RegExp) {
  const parsed = errorBodySchema.strict().parse(body);
  expect(parsed.message).toMatch(message);
}

describe('slow clients are cut', () => {
  it('headers that never finish: 408 in the envelope after headers_seconds', async () => {
    const result = await rawExchange(
      service.baseUrl,
      ['GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 500, 'X-Slow: 1\r\n'],
      10_000,
    );
    expect(result.status).toBe(408);
    expectEnvelope(result.body, /^request: not received in time \(headers within 1 s/);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(1000);
    expect(result.closedAfterMs).toBeLessThan(3500);
  });

  it('a withheld body: cut after request_seconds; a trickled one too', async () => {
    const head = requestHead('POST', '/v1/client/job', [
      auth(),
      'Content-Type: application/json',
      'Content-Length: 100',
    ]);
    const trickle = [
      head,
      ...Array.from({ length: 40 }, (_, i) => [i === 0 ? '{' : ' ', 200]).flat(),
    ];
    const [withheld, trickled] = await Promise.all([
      rawExchange(service.baseUrl, [head, '{"job_'], 10_000),
      rawExchange(service.baseUrl, trickle as (string | number)[], 10_000),
    ]);
    for (const result of [withheld, trickled]) {
      expect(result.status).toBe(408);
      expect(result.closedAfterMs).toBeGreaterThanOrEqual(2000);
      expect(result.closedAfterMs).toBeLessThan(4500);
    }
  });

  it('an idle keep-alive connection is closed after keep_alive_seconds', async () => {
    const result = await rawExchange(service.baseUrl, [requestHead('GET', '/v1/health')], 10_000);
    expect(result.status).toBe(200);
    expect(result.closedAfterMs).toBeLessThan(3500);
  });
});

describe('errors Fastify or Node raise before a route are in the envelope', () => {
  it('bad percent-encoding in an id: 400 naming job_id', async () => {
    const response = await service.request('GET', '/v1/client/job/%E0%A4%A');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ ok: false, message: 'job_id: is not valid percent-encoding' });
  });

  it('an id over 100 characters: 414 that does not echo it', async () => {
    const id = 'jd_'.padEnd(300, 'k');
    const response = await service.request('GET', `/v1/client/job/${id}`);
    expect(response.status).toBe(414);
    expectEnvelope(response.body, /^job_id: must be at most 100 characters \(job ids have 36\)$/);
    expect(response.text).not.toContain('kkkk');
  });

  it('headers over 16 KiB: 431', async () => {
    const result = await rawExchange(
      service.baseUrl,
      [requestHead('GET', '/v1/health', [`X-Big: ${'a'.repeat(17 * 1024)}`])],
      5000,
    );
    expect(result.status).toBe(431);
    expectEnvelope(result.body, /^headers: larger than 16384 bytes/);
  });

  it('an Expect other than 100-continue: 417', async () => {
    const result = await rawExchange(
      service.baseUrl,
      [requestHead('GET', '/v1/health', ['Expect: something-else'])],
      5000,
    );
    expect(result.status).toBe(417);
    expectEnvelope(result.body, /^Expect: only "100-continue"/);
  });

  it('an HTTP/1.1 request without Host: 400 in the envelope (was: an empty 400)', async () => {
    const result = await rawExchange(
      service.baseUrl,
      ['GET /v1/health HTTP/1.1\r\nConnection: close\r\n\r\n'],
      5000,
    );
    expect(result.status).toBe(400);
    expectEnvelope(result.body, /^Host: required in an HTTP\/1\.1 request$/);
  });

  it('CONNECT: 405 in the envelope (was: the connection dropped without a word)', async () => {
    const result = await rawExchange(
      service.baseUrl,
      ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
      5000,
    );
    expect(result.status).toBe(405);
    expectEnvelope(result.body, /^CONNECT: this service is not a proxy$/);
  });

  it('a malformed request line: 400, quoting nothing of it', async () => {
    const result = await rawExchange(
      service.baseUrl,
      ['GET\x00 /jd_secretish HTTP/1.1\r\n\r\n'],
      5000,
    );
    expect(result.status).toBe(400);
    expectEnvelope(result.body, /^request: not valid HTTP\/1\.1/);
    expect(result.text).not.toContain('secretish');
  });

  it('an unknown long path is not echoed, a short one is', async () => {
    const long = await service.request('GET', `/v1/${'x'.repeat(500)}`);
    expect(long.body).toEqual({ ok: false, message: 'no endpoint GET at this path' });
    const short = await service.request('GET', '/v1/nothing?key=jd_abc');
    expect(short.body).toEqual({ ok: false, message: 'no endpoint GET /v1/nothing' });
  });

  it('invalid UTF-8 and bad JSON: 400 that quotes none of the body', async () => {
    const invalidUtf8 = await fetch(`${service.baseUrl}/v1/client/job`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
      body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
    });
    expect(invalidUtf8.status).toBe(400);
    expect(await invalidUtf8.json()).toEqual({ ok: false, message: 'body: not valid UTF-8' });
    const badJson = await service.request('POST', '/v1/client/job', 'hunter2-secret');
    expect(badJson.body).toEqual({
      ok: false,
      message: 'body: not valid JSON (unexpected character)',
    });
  });
});

describe('query parameters', () => {
  /** A concrete path for a documented one: the query is refused before any id is looked up. */
  const concrete = (path: string) =>
    path.replace('{attempt}', '1').replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');

  it('are refused on every GET route that does not take them, by name', async () => {
    const openApi = await service.request('GET', '/v1/openapi.json');
    const documented = Object.entries(openApi.body.paths as Record<string, object>)
      .filter(([, operations]) => 'get' in operations)
      .map(([path]) => path);
    // Every client route is in OPERATION_ROLES (the service registers none that is not).
    const client = Object.keys(OPERATION_ROLES)
      .filter((operation) => operation.startsWith('GET '))
      .map((operation) => operation.slice('GET '.length));
    const unauthenticated = ['/healthz', '/readyz', '/v1/health', '/v1/openapi.json'];
    const paths = [...new Set([...client, ...documented, ...unauthenticated])];
    expect(paths.length).toBeGreaterThan(25);
    for (const path of paths) {
      const response = await service.request('GET', `${concrete(path)}?colour=red`);
      expect(response.status, path).toBe(400);
      // Beside what a route requires and was not given (the trends' queue).
      expect(response.body.message?.split('; '), path).toContain(
        'colour: is not a parameter of this endpoint',
      );
    }
  });

  it('are refused on the other methods too, before the operation acts', async () => {
    const response = await service.request(
      'POST',
      '/v1/client/queues/t::default/pause?reason=maintenance',
      {},
    );
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('reason: is not a parameter of this endpoint');
    const queues = await service.request('GET', '/v1/client/queues');
    const items = (queues.body.data as { items: { queue: string; paused: boolean }[] }).items;
    expect(items.find((queue) => queue.queue === 't::default')?.paused).toBe(false);
  });
});

describe('security headers', () => {
  it('every API response, errors included, is no-store, nosniff and unframeable', async () => {
    for (const response of [
      await service.request('GET', '/v1/health'),
      await service.request('GET', '/v1/client/jobs'),
      await service.request('GET', '/v1/client/job/%E0%A4%A'),
      await service.request('GET', '/v1/nothing'),
    ]) {
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });
});

describe('failed authentication is rate limited per address', () => {
  it('429 with Retry-After once an address has failed auth_failures_per_minute times', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i += 1) {
      last = await service.request('GET', '/v1/client/jobs', undefined, `jd_guess-${i}`);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expectEnvelope(last!.body, /^Authorization: more than 3 failed attempts per minute/);
    // The address is blocked before any key is looked at, a valid one included.
    expect((await service.request('GET', '/v1/client/jobs')).status).toBe(429);
  });
});

describe('SIGTERM', () => {
  it('closes within the grace while a client withholds its body (Node stops the timeouts on close)', async () => {
    const head = requestHead('POST', '/v1/client/job', [
      auth(),
      'Content-Type: application/json',
      'Content-Length: 100',
    ]);
    const stalled = rawExchange(service.baseUrl, [head, '{'], 20_000);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    await service.stop('SIGTERM');
    expect(Date.now() - started).toBeLessThan(CLOSE_GRACE_MS + 2000);
    await stalled;
  });
});
