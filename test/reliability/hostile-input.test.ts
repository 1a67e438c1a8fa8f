import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitJobResultSchema, successEnvelope } from '../../contract';
import { detail, jobsNewerThan, newestJobId } from '../support/jobs';
import { rawExchange, requestHead } from '../support/raw-http';
import { startService, type TestService } from '../support/service';
import { StatusTally, expectErrorEnvelope } from './answers';
import { budget, recordFigure, timed } from './figures';
import {
  FIELDS,
  FUZZ_QUEUE,
  expectedAnswer,
  mutate,
  mutation,
  validSubmission,
} from './submit-model';

let service: TestService;
beforeAll(async () => {
  // Unknown keys are part of the corpus; the failed-authentication limit has its own test.
  service = await startService({ auth_failures_per_minute: 0 });
});
afterAll(() => service.stop());

const FUZZ_REQUESTS = budget({ full: 10_000, ci: 1_000 });
const BATCH = 500;
const accepted = successEnvelope(submitJobResultSchema).strict();

function post(body: string | Buffer, headers: Record<string, string> = {}) {
  return fetch(`${service.baseUrl}/v1/client/job`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${service.key}`,
      'content-type': 'application/json',
      ...headers,
    },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  }).then(async (response) => ({ status: response.status, text: await response.text() }));
}

async function expectHealthy() {
  const health = await fetch(`${service.baseUrl}/v1/health`);
  expect(health.status).toBe(200);
}

describe('Job Submit under property-based fuzzing (fast-check, from the contract)', () => {
  it(`answers ${FUZZ_REQUESTS} valid and mutated submissions exactly as the contract says`, async () => {
    const tally = new StatusTally();
    const heldNames = new Set<string>();
    let since = await newestJobId(service);
    let acceptedInBatch = 0;
    const submission = fc.oneof(
      { arbitrary: validSubmission, weight: 1 },
      { arbitrary: fc.tuple(validSubmission, mutation).map(([v, m]) => mutate(v, m)), weight: 3 },
    );

    const { ms } = await timed(() =>
      fc.assert(
        fc.asyncProperty(submission, async (payload) => {
          const body = JSON.stringify(payload);
          const expected = expectedAnswer(body, heldNames);
          const response = await post(body);
          tally.add(response.status);
          const context = `${response.status} for ${body.slice(0, 400)}`;
          expect(response.status, context).toBe(expected.status);
          if (response.status === 202) {
            expect(accepted.safeParse(JSON.parse(response.text)).success, context).toBe(true);
            if (typeof payload.name === 'string' && payload.job_queue === FUZZ_QUEUE) {
              heldNames.add(payload.name);
            }
            acceptedInBatch += 1;
          } else {
            const message = expectErrorEnvelope(response.text, context);
            if (expected.message !== undefined) expect(message, context).toBe(expected.message);
            if (expected.field !== undefined)
              expect(message, context).toMatch(new RegExp(`^${expected.field}\\b`));
          }
          // Between batches: still up, and exactly the accepted submissions were stored.
          if (tally.total % BATCH === 0) {
            await expectHealthy();
            expect(await jobsNewerThan(service, since)).toBe(acceptedInBatch);
            since = await newestJobId(service);
            acceptedInBatch = 0;
          }
        }),
        { numRuns: FUZZ_REQUESTS },
      ),
    );

    await expectHealthy();
    expect(await jobsNewerThan(service, since)).toBe(acceptedInBatch);
    expect(tally.counts['5xx']).toBe(0);
    recordFigure('fuzz: Job Submit requests sent', tally.total, 'requests');
    recordFigure('fuzz: answered 202 (valid)', tally.counts['2xx'], 'requests');
    recordFigure('fuzz: answered 4xx naming the field', tally.counts['4xx'], 'requests');
    recordFigure('fuzz: answered 5xx', tally.counts['5xx'], 'requests');
    recordFigure('fuzz: duration', ms / 1000, 's');
    recordFigure('fuzz: rate', tally.total / (ms / 1000), 'requests/s');
  });
});

interface CorpusCase {
  label: string;
  send: () => Promise<{ status: number | null; text: string }>;
  /** The status that must come back; for 4xx, the start of the message too. */
  status: number;
  message?: RegExp;
}

const base = { job_definition: 't::echo:1', job_queue: FUZZ_QUEUE };
const json = (value: unknown) => JSON.stringify(value);

/** The payload with `key` set as an own property of the object at `path`, as JSON text. */
function withOwnKey(path: string[], key: string, value: unknown): string {
  const payload: Record<string, unknown> = structuredClone({
    ...base,
    container_env: { A: { value: 'v' } },
    container_cmd_parameter: { p: 'v' },
  });
  let target: Record<string, unknown> = payload;
  for (const step of path) target = target[step] as Record<string, unknown>;
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return json(payload);
}

function bodyCases(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const wrongValues: unknown[] = [1, true, null, {}, [], 'text', [1, 'a'], { value: 1 }];
  // The few that are valid after all: a plain name, an empty map or list, Unix seconds.
  const rightType = (field: string, value: unknown) =>
    (value === 'text' && field === 'name') ||
    (json(value) === '{}' && ['container_cmd_parameter', 'container_env'].includes(field)) ||
    (json(value) === '[]' && field === 'container_cmd') ||
    (value === 1 && field === 'schedule_at');
  for (const field of FIELDS) {
    for (const value of wrongValues.filter((v) => !rightType(field, v))) {
      cases.push({
        label: `wrong type in ${field}: ${json(value)}`,
        send: () => post(json({ ...base, [field]: value })),
        status: 400,
        message: new RegExp(`^${field}`),
      });
    }
  }
  const nul = 'a\0b';
  cases.push(
    {
      label: '1 MB string',
      send: () => post(json({ ...base, name: 'x'.repeat(1 << 20) })),
      status: 413,
      message: /^body: larger than/,
    },
    {
      label: '10,000-word command',
      send: () => post(json({ ...base, container_cmd: Array(10_000).fill('w') })),
      status: 400,
      message: /^container_cmd: must have at most 1000 words$/,
    },
    {
      label: '100,000 nested arrays as the body',
      send: () => post(`${'['.repeat(100_000)}${']'.repeat(100_000)}`),
      status: 400,
      message: /^body/,
    },
    {
      label: '10,000 nested objects in container_env',
      send: () =>
        post(
          `{"job_definition":"t::echo:1","job_queue":"${FUZZ_QUEUE}","container_env":${'{"A":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
        ),
      status: 400,
      message: /^container_env\.A/,
    },
    {
      label: '__proto__ at the top',
      send: () => post(withOwnKey([], '__proto__', { name: 'x' })),
      status: 400,
      message: /^__proto__: is not a field/,
    },
    {
      label: 'constructor at the top',
      send: () => post(withOwnKey([], 'constructor', 1)),
      status: 400,
      message: /^constructor: is not a field/,
    },
    {
      label: 'sensitive env named __proto__',
      send: () => post(withOwnKey(['container_env'], '__proto__', { value: 's', sensitive: true })),
      status: 400,
      message: /^container_env\.__proto__: is a reserved name/,
    },
    {
      label: 'env named constructor',
      send: () => post(withOwnKey(['container_env'], 'constructor', { value: 's' })),
      status: 400,
      message: /^container_env\.constructor: is a reserved name/,
    },
    {
      label: 'env named prototype',
      send: () => post(withOwnKey(['container_env'], 'prototype', { value: 's' })),
      status: 400,
      message: /^container_env\.prototype: is a reserved name/,
    },
    {
      label: 'parameter named __proto__',
      send: () => post(withOwnKey(['container_cmd_parameter'], '__proto__', 'x')),
      status: 400,
      message: /^container_cmd_parameter\.__proto__: is a reserved name/,
    },
    {
      label: '__proto__ in an env entry',
      send: () => post(withOwnKey(['container_env', 'A'], '__proto__', { sensitive: true })),
      status: 400,
      message: /^container_env\.A\.__proto__: is not a field/,
    },
    {
      label: 'NUL in job_definition',
      send: () => post(json({ ...base, job_definition: `t::echo:1${nul}` })),
      status: 400,
      message: /^job_definition: must look like/,
    },
    {
      label: 'NUL in name',
      send: () => post(json({ ...base, name: nul })),
      status: 400,
      message: /^name: may contain only/,
    },
    {
      label: 'NUL in a command word',
      send: () => post(json({ ...base, container_cmd: [nul] })),
      status: 400,
      message: /^container_cmd\[0\]: must not contain NUL bytes$/,
    },
    {
      label: 'NUL in a parameter value',
      send: () => post(json({ ...base, container_cmd_parameter: { p: nul } })),
      status: 400,
      message: /^container_cmd_parameter\.p: must not contain NUL bytes$/,
    },
    {
      label: 'NUL in an env name',
      send: () => post(json({ ...base, container_env: { [nul]: { value: 'v' } } })),
      status: 400,
      message: /^container_env\.a.b: is not a valid variable name/,
    },
    {
      label: 'NUL in a sensitive env value',
      send: () => post(json({ ...base, container_env: { T: { value: nul, sensitive: true } } })),
      status: 400,
      message: /^container_env\.T\.value: must not contain NUL bytes$/,
    },
    {
      label: 'invalid UTF-8 in a value',
      send: () =>
        post(
          Buffer.concat([
            Buffer.from(`{"job_definition":"t::echo:1","job_queue":"${FUZZ_QUEUE}","name":"`),
            Buffer.from([0xc3, 0x28]),
            Buffer.from('"}'),
          ]),
        ),
      status: 400,
      message: /^body: not valid UTF-8$/,
    },
    {
      label: 'a lone UTF-8 continuation byte',
      send: () => post(Buffer.from([0x7b, 0x80, 0x7d])),
      status: 400,
      message: /^body: not valid UTF-8$/,
    },
    {
      label: 'a lone surrogate, escaped, in a command word',
      send: () =>
        post(
          `{"job_definition":"t::echo:1","job_queue":"${FUZZ_QUEUE}","container_cmd":["\\udfff"]}`,
        ),
      status: 400,
      message: /^container_cmd\[0\]: must be well-formed Unicode/,
    },
    {
      label: 'an emoji (a surrogate pair) in a command word',
      send: () =>
        post(
          `{"job_definition":"t::echo:1","job_queue":"${FUZZ_QUEUE}","container_cmd":["\\ud83d\\udca9"]}`,
        ),
      status: 202,
    },
    {
      label: 'not JSON',
      send: () => post('job_definition=t::echo:1'),
      status: 400,
      message: /^body: not valid JSON/,
    },
    {
      label: 'truncated JSON',
      send: () => post('{"job_definition":"t::echo:1",'),
      status: 400,
      message: /^body: not valid JSON/,
    },
    {
      label: 'JSON null',
      send: () => post('null'),
      status: 400,
      message: /^body must be a JSON object$/,
    },
    {
      label: 'JSON array',
      send: () => post('[]'),
      status: 400,
      message: /^body must be a JSON object$/,
    },
    {
      label: 'JSON string',
      send: () => post('"t::echo:1"'),
      status: 400,
      message: /^body must be a JSON object$/,
    },
    { label: 'empty body', send: () => post(''), status: 400, message: /^body: missing/ },
    {
      label: 'whitespace body',
      send: () => post(' \n\t '),
      status: 400,
      message: /^body: missing/,
    },
    {
      label: 'text/plain',
      send: () => post(json(base), { 'content-type': 'text/plain' }),
      status: 400,
      message: /^Content-Type: must be application\/json$/,
    },
    {
      label: 'form encoding',
      send: () => post('a=b', { 'content-type': 'application/x-www-form-urlencoded' }),
      status: 400,
      message: /^Content-Type:/,
    },
    {
      label: 'multipart',
      send: () => post('--x\r\n\r\n--x--', { 'content-type': 'multipart/form-data; boundary=x' }),
      status: 400,
      message: /^Content-Type:/,
    },
    {
      label: 'no Content-Type',
      send: () =>
        rawExchange(
          service.baseUrl,
          [
            requestHead('POST', '/v1/client/job', [
              `Authorization: Bearer ${service.key}`,
              `Content-Length: ${json(base).length}`,
            ]),
            json(base),
          ],
          5000,
        ),
      status: 400,
      message: /^Content-Type:/,
    },
    // The last of duplicate keys wins, as JSON.parse and most JSON APIs do; checked below.
    {
      label: 'duplicate keys',
      send: () =>
        post(
          `{"job_definition":"nope","job_definition":"t::echo:1","job_queue":"${FUZZ_QUEUE}","name":"first-dup","name":"dup-last"}`,
        ),
      status: 202,
    },
    // A byte-order mark is not part of the JSON text: decoded away, the payload is valid.
    {
      label: 'UTF-8 BOM',
      send: () => post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json(base))])),
      status: 202,
    },
  );
  return cases;
}

function idCases(): CorpusCase[] {
  // (A literal %2e%2e is left out: fetch resolves it as "..", as browsers do.)
  const ids = [
    '..%2F',
    '..%2F..%2F..%2Fetc%2Fpasswd',
    '%00',
    'a%00b',
    '%F0%9F%92%A9',
    "'%20OR%201=1--",
    '%25',
    '%3Cscript%3E',
    'x'.repeat(100),
  ];
  const cases: CorpusCase[] = [];
  const endpoints = [
    ['GET', ''],
    ['POST', '/cancel'],
    ['GET', '/transitions'],
    ['GET', '/logs'],
  ] as const;
  const call = (method: string, path: string) => () =>
    fetch(`${service.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${service.key}` },
    }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
    }));
  for (const [method, suffix] of endpoints) {
    for (const id of ids) {
      cases.push({
        label: `${method} id ${id.slice(0, 30)}${suffix}`,
        send: call(method, `/v1/client/job/${id}${suffix}`),
        status: 404,
        message: /^job_id: no job ".*" in this project$/s,
      });
    }
    cases.push(
      {
        label: `${method} 10 KB id${suffix}`,
        send: call(method, `/v1/client/job/${'k'.repeat(10_240)}${suffix}`),
        status: 414,
        message: /^job_id: must be at most 100 characters/,
      },
      {
        label: `${method} bad percent-encoding${suffix}`,
        send: call(method, `/v1/client/job/%E0%A4%A${suffix}`),
        status: 400,
        message: /^job_id: is not valid percent-encoding$/,
      },
    );
  }
  return cases;
}

function headerCases(): CorpusCase[] {
  const raw =
    (lines: string[], body = '') =>
    () =>
      rawExchange(
        service.baseUrl,
        [
          requestHead('POST', '/v1/client/job', [
            `Authorization: Bearer ${service.key}`,
            'Content-Type: application/json',
            ...lines,
          ]) + body,
        ],
        5000,
      );
  const body = json(base);
  const length = `Content-Length: ${body.length}`;
  return [
    {
      label: '1,000 small headers',
      send: raw([length, ...Array.from({ length: 1000 }, (_, i) => `X-${i}: v`)], body),
      status: 202,
    },
    {
      label: '3,000 small headers (over 16 KiB)',
      send: raw([length, ...Array.from({ length: 3000 }, (_, i) => `X-${i}: v`)], body),
      status: 431,
      message: /^headers: larger than 16384 bytes/,
    },
    {
      label: 'one 20 KB header',
      send: raw([length, `X-Big: ${'a'.repeat(20_000)}`], body),
      status: 431,
      message: /^headers:/,
    },
    // What llhttp refuses: each a 400 in the envelope, quoting nothing of the request.
    ...(
      [
        ['control character in a header value', 'X-Odd: a\x01b'],
        ['space in a header name', 'X Odd: v'],
        ['two different Content-Lengths', 'Content-Length: 3'],
        ['Content-Length with Transfer-Encoding (smuggling)', 'Transfer-Encoding: chunked'],
      ] as const
    ).map(([label, line]) => ({
      label,
      send: raw([length, line], body),
      status: 400,
      message: /^request: not valid HTTP\/1\.1/,
    })),
    {
      label: 'a 10 KB bearer token',
      send: () => post(body, { authorization: `Bearer ${'k'.repeat(10_000)}` }),
      status: 401,
      message: /^Authorization: unknown or revoked API key$/,
    },
    {
      label: 'Authorization in another scheme',
      send: () => post(body, { authorization: 'Basic dXNlcjpwYXNz' }),
      status: 401,
      message: /^Authorization: must be "Bearer <API_KEY>"$/,
    },
    {
      label: 'Expect: 100-continue',
      send: raw([length, 'Expect: 100-continue'], body),
      status: 202,
    },
    {
      label: 'Expect: something else',
      send: raw([length, 'Expect: 200-ok'], body),
      status: 417,
      message: /^Expect: only "100-continue"/,
    },
    {
      label: 'a request line with a NUL',
      send: () => rawExchange(service.baseUrl, ['POST /v1/client/job\0 HTTP/1.1\r\n\r\n'], 5000),
      status: 400,
      message: /^request: not valid HTTP\/1\.1/,
    },
  ];
}

describe('Job Submit and the id endpoints against a fixed corpus of nasty inputs', () => {
  it('answers each as stated, in the envelope, stores nothing it refused, stays up', async () => {
    const since = await newestJobId(service);
    const tally = new StatusTally();
    const cases = [...bodyCases(), ...idCases(), ...headerCases()];
    let acceptedCount = 0;
    for (const testCase of cases) {
      const { status, text } = await testCase.send();
      tally.add(status ?? 0);
      expect(status, `${testCase.label}: ${text.slice(0, 300)}`).toBe(testCase.status);
      if (status === 202) acceptedCount += 1;
      else if (testCase.message) {
        const message = expectErrorEnvelope(text.slice(text.indexOf('{')), testCase.label);
        expect(message, testCase.label).toMatch(testCase.message);
      }
      if (tally.total % 20 === 0) await expectHealthy();
    }
    // The last duplicate key won.
    const dup = await fetch(`${service.baseUrl}/v1/client/jobs?limit=200`, {
      headers: { authorization: `Bearer ${service.key}` },
    });
    const dupJob = (
      (await dup.json()) as { data: { items: { id: string; name: string }[] } }
    ).data.items.find((j) => j.name.startsWith('dup'));
    expect((await detail(service, dupJob!.id)).name).toBe('dup-last');

    await expectHealthy();
    expect(await jobsNewerThan(service, since)).toBe(acceptedCount);
    expect(tally.counts['5xx']).toBe(0);
    recordFigure('corpus: nasty inputs sent', cases.length, 'requests');
    recordFigure('corpus: answered 5xx', tally.counts['5xx'], 'requests');
  });
});
