import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detail, submit } from '../support/jobs';
import { startService, type TestService } from '../support/service';
import { expectErrorEnvelope } from './answers';
import { recordFigure } from './figures';

let service: TestService;
let job: string;
let otherKey: string;
let revokedKey: string;

beforeAll(async () => {
  // Every cell below fails authentication on purpose; the limit on that is tested at the end.
  service = await startService({ auth_failures_per_minute: 0 });
  job = await submit(service, { job_definition: 't::sleep:1', job_queue: 't::paused' });
  otherKey = await service.cli('keys', 'create', '--project', 'other');
  revokedKey = await service.cli('keys', 'create', '--project', 't', '--label', 'revoked');
  const id = (await service.cli('keys', 'list'))
    .split('\n')
    .find((line) => line.endsWith('revoked'))!
    .split('\t')[0]!;
  await service.cli('keys', 'revoke', id);
});
afterAll(() => service.stop());

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** Every endpoint: the spec's three operations and each extension. */
const endpoints = (id: string) =>
  [
    [
      'Job Submit',
      'POST',
      '/v1/client/job',
      { job_definition: 't::echo:1', job_queue: 't::paused' },
    ],
    ['Job Detail', 'GET', `/v1/client/job/${id}`, undefined],
    ['Cancel Job', 'POST', `/v1/client/job/${id}/cancel`, undefined],
    ['list', 'GET', '/v1/client/jobs', undefined],
    ['transitions', 'GET', `/v1/client/job/${id}/transitions`, undefined],
    ['logs', 'GET', `/v1/client/job/${id}/logs`, undefined],
    ['execution', 'GET', `/v1/client/job/${id}/execution`, undefined],
    ['queues', 'GET', '/v1/client/queues', undefined],
    ['events', 'GET', '/v1/client/events', undefined],
  ] as const;

/** How each caller presents (or fails to present) a key; null header: none sent. */
const callers = () =>
  [
    ['no header', null, ''],
    ['malformed header', 'Token abc', ''],
    ['malformed header (no key)', 'Bearer', ''],
    ['unknown key', 'Bearer jd_unknown-key', ''],
    ['revoked key', `Bearer ${revokedKey}`, ''],
    ['key in the query string only', null, `?api_key=${service.key}&access_token=${service.key}`],
  ] as const;

async function call(method: string, path: string, body: unknown, authorization: string | null) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== null) headers.authorization = authorization;
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe('authorization table: every endpoint × every way of presenting a key', () => {
  it('401 without a valid key, wherever else the key may be', async () => {
    let cells = 0;
    for (const [endpoint, method, path, body] of endpoints(job)) {
      for (const [caller, header, query] of callers()) {
        const answer = await call(method, `${path}${query}`, body, header);
        const context = `${endpoint} with ${caller}`;
        expect(answer.status, context).toBe(401);
        expect(expectErrorEnvelope(answer.text, context)).toMatch(/^Authorization: /);
        expect(answer.text, context).not.toContain(service.key);
        cells += 1;
      }
    }
    // The job was not touched by any of it.
    expect((await detail(service, job)).state).toBe('runnable');
    recordFigure('authorization: table cells answered 401', cells, 'cells');
  });

  it("another project's key: 404 exactly like an unknown id, for every endpoint of one job", async () => {
    const mine = endpoints(job).filter(([, , path]) => path.includes(job));
    const unknown = endpoints(UNKNOWN_ID).filter(([, , path]) => path.includes(UNKNOWN_ID));
    for (const [index, [endpoint, method, path]] of mine.entries()) {
      const theirs = await call(method, path, undefined, `Bearer ${otherKey}`);
      const [, unknownMethod, unknownPath] = unknown[index]!;
      const missing = await call(unknownMethod, unknownPath, undefined, `Bearer ${otherKey}`);
      expect(theirs.status, endpoint).toBe(404);
      expect(missing.status, endpoint).toBe(404);
      // Same words with the id swapped: nothing tells the two apart.
      expect(theirs.text.replace(job, '<id>'), endpoint).toBe(
        missing.text.replace(UNKNOWN_ID, '<id>'),
      );
    }
    expect((await detail(service, job)).state).toBe('runnable');

    const submitted = await call(
      'POST',
      '/v1/client/job',
      { job_definition: 't::echo:1', job_queue: 't::paused' },
      `Bearer ${otherKey}`,
    );
    expect(submitted.status).toBe(400);
    expect(expectErrorEnvelope(submitted.text, 'submit')).toBe(
      `job_definition: project "t" is not this API key's project "other"`,
    );
    const list = await call('GET', '/v1/client/jobs', undefined, `Bearer ${otherKey}`);
    expect(JSON.parse(list.text)).toEqual({
      ok: true,
      data: { items: [], next_cursor: null, total: 0, total_exact: true },
    });
    const queues = await call('GET', '/v1/client/queues', undefined, `Bearer ${otherKey}`);
    const listed = (JSON.parse(queues.text) as { data: { items: { queue: string }[] } }).data;
    expect(listed.items.map((q) => q.queue)).toEqual(['other::default']);
  });
});

describe('failed authentication at the default limit', () => {
  it('answers 429 with Retry-After after 30 failures a minute from one address', async () => {
    const limited = await startService();
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 32; i += 1) {
        last = await limited.request('GET', '/v1/client/jobs', undefined, `jd_guess-${i}`);
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
      expect(statuses.slice(30)).toEqual([429, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      recordFigure(
        'authorization: failed attempts per address before 429',
        statuses.indexOf(429),
        'attempts/min',
      );
    } finally {
      await limited.stop();
    }
  });
});
