import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArrayAnswer, DependenciesAnswer, JobListItem } from '../../contract';
import { sharedStoreSettings } from '../support/postgres';
import { startService, type TestService } from '../support/service';

/**
 * Job Submit's Idempotency-Key (docs/guides/idempotency.md), on the store the run is given
 * (JOBDECK_TEST_STORE): a retry answers with the first job, a different request with a 409,
 * racing submits make one job, a kill between the commit and the answer loses nothing.
 * In the paused queue: only the admission is under test, nothing runs.
 */
const QUEUE = 't::paused';
const started: TestService[] = [];
afterAll(async () => {
  for (const service of started) await service.stop();
});

async function serviceWith(settings: Record<string, unknown> = {}, env?: Record<string, string>) {
  const service = await startService(settings, undefined, { env });
  started.push(service);
  return service;
}

const body = (name: string, extra: Record<string, unknown> = {}) => ({
  job_definition: 't::sh:1',
  job_queue: QUEUE,
  name,
  container_cmd_parameter: { script: 'echo hi' },
  ...extra,
});

const submitWith = (
  service: TestService,
  key: string | undefined,
  payload: unknown,
  apiKey?: string,
) =>
  service.request(
    'POST',
    '/v1/client/job',
    payload,
    apiKey,
    key === undefined ? {} : { 'Idempotency-Key': key },
  );

/** The ids of the project's jobs (an array's parent for its children) whose name starts so. */
async function jobsNamedFrom(
  service: TestService,
  prefix: string,
  apiKey?: string,
): Promise<JobListItem[]> {
  const response = await service.request(
    'GET',
    `/v1/client/jobs?limit=200&name=${encodeURIComponent(prefix)}`,
    undefined,
    apiKey,
  );
  expect(response.status).toBe(200);
  return (response.body.data as { items: JobListItem[] }).items;
}

/** The ids of the project's jobs named exactly so. */
const jobsNamed = async (service: TestService, name: string, apiKey?: string) =>
  (await jobsNamedFrom(service, name, apiKey))
    .filter((job) => job.name === name)
    .map((job) => job.id);

const idOf = (response: { status: number; body: { data?: unknown }; text: string }) => {
  expect(response.status, response.text).toBe(202);
  return (response.body.data as { id: string }).id;
};

describe('Idempotency-Key', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await serviceWith();
  });

  it('the same key and body twice: 202 with the same id both times, one job', async () => {
    const key = randomUUID();
    const first = await submitWith(service, key, body('same-twice'));
    const again = await submitWith(service, key, body('same-twice'));
    expect(idOf(again)).toBe(idOf(first));
    // The replay's answer is the first's, byte for byte.
    expect(again.text).toBe(first.text);
    expect(await jobsNamed(service, 'same-twice')).toEqual([idOf(first)]);
  });

  it('the body is compared as the contract reads it: its keys in another order are the same request', async () => {
    const key = randomUUID();
    const first = await submitWith(service, key, body('reordered'));
    const reordered = {
      container_cmd_parameter: { script: 'echo hi' },
      name: 'reordered',
      job_queue: QUEUE,
      job_definition: 't::sh:1',
    };
    expect(idOf(await submitWith(service, key, reordered))).toBe(idOf(first));
    expect(await jobsNamed(service, 'reordered')).toHaveLength(1);
  });

  it('the same key with a different body: 409 naming the header, nothing created', async () => {
    const key = randomUUID();
    const first = await submitWith(service, key, body('differs'));
    const other = await submitWith(service, key, body('differs-2'));
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^Idempotency-Key: already used in this project for another request/,
      ),
    });
    expect(await jobsNamed(service, 'differs-2')).toEqual([]);
    // The key still answers for its own request.
    expect(idOf(await submitWith(service, key, body('differs')))).toBe(idOf(first));
  });

  it('a sensitive value counts: the same key with another secret is a 409, and the secret is never in the answer', async () => {
    const key = randomUUID();
    const env = (value: string) => ({ container_env: { TOKEN: { value, sensitive: true } } });
    const first = await submitWith(service, key, body('secret', env('s3cret-one')));
    const same = await submitWith(service, key, body('secret', env('s3cret-one')));
    expect(idOf(same)).toBe(idOf(first));
    const other = await submitWith(service, key, body('secret', env('s3cret-two')));
    expect(other.status).toBe(409);
    expect(other.text).not.toContain('s3cret');
  });

  it('without a key: the spec’s behaviour, a new job for every submit and the answer as the spec gives it', async () => {
    const first = await submitWith(service, undefined, body('no-key'));
    // The name is held by the first (unfinished) job: the spec's 400, not a replay.
    const again = await submitWith(service, undefined, body('no-key'));
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/^name: "no-key" is already held by job /);
    const unnamed = { job_definition: 't::sh:1', job_queue: QUEUE };
    const a = await submitWith(service, undefined, unnamed);
    const b = await submitWith(service, undefined, unnamed);
    expect(idOf(a)).not.toBe(idOf(b));
    expect(first.text).toBe(`{"ok":true,"data":{"id":"${idOf(first)}"}}`);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('refuses a malformed key with a 400 naming the header, storing nothing', async () => {
    for (const key of ['x'.repeat(256), 'tab\there', 'caf\u00e9']) {
      const response = await submitWith(service, key, body('bad-key'));
      expect(response.status, key).toBe(400);
      expect(response.body).toEqual({
        ok: false,
        message:
          'Idempotency-Key: must be 1 to 255 printable ASCII characters (a UUID is a good key)',
      });
    }
    expect(await jobsNamed(service, 'bad-key')).toEqual([]);
    // 255 printable characters, spaces inside included, are a key.
    const longest = `a ${'k'.repeat(253)}`;
    idOf(await submitWith(service, longest, body('longest-key')));
  });

  it('keys are per project: the same key in another project makes that project its own job', async () => {
    const otherKey = await service.cli('keys', 'create', '--project', 'other');
    const key = randomUUID();
    const mine = idOf(await submitWith(service, key, body('per-project')));
    const theirs = idOf(
      await submitWith(
        service,
        key,
        { job_definition: 'other::echo:1', job_queue: 'other::default', name: 'per-project' },
        otherKey,
      ),
    );
    expect(theirs).not.toBe(mine);
    expect(await jobsNamed(service, 'per-project', otherKey)).toEqual([theirs]);
    expect(await jobsNamed(service, 'per-project')).toEqual([mine]);
  });

  it('concurrent submits with one key make one job, and every one answers with its id', async () => {
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => submitWith(service, key, body('racing'))),
    );
    const ids = new Set(answers.map(idOf));
    expect(ids.size).toBe(1);
    expect(await jobsNamed(service, 'racing')).toEqual([...ids]);
  });

  it('concurrent submits with one key and different bodies: one job, the others 409', async () => {
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => submitWith(service, key, body(`racing-${i}`))),
    );
    const accepted = answers.filter((a) => a.status === 202);
    expect(accepted).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(7);
    const listed = await jobsNamedFrom(service, 'racing-');
    expect(listed.map((job) => job.id)).toEqual([idOf(accepted[0]!)]);
  });

  it('an array submit with a key: one parent, its children once', async () => {
    const key = randomUUID();
    const array = body('array-keyed', { array: { size: 5 } });
    const first = idOf(await submitWith(service, key, array));
    expect(idOf(await submitWith(service, key, array))).toBe(first);
    expect(await jobsNamed(service, 'array-keyed')).toEqual([first]);
    const children = (await service.request('GET', `/v1/client/job/${first}/array`)).body
      .data as ArrayAnswer;
    expect(children.size).toBe(5);
    expect(Object.values(children.counts).reduce((sum, n) => sum + n, 0)).toBe(5);
  });

  it('a submit with dependencies and a key: the retry answers with the first job, not a second waiter', async () => {
    const target = idOf(await submitWith(service, undefined, body('awaited')));
    const key = randomUUID();
    const waiting = body('waiter', { depends_on: [{ job_id: target }] });
    const first = idOf(await submitWith(service, key, waiting));
    expect(idOf(await submitWith(service, key, waiting))).toBe(first);
    expect(await jobsNamed(service, 'waiter')).toEqual([first]);
    const awaited = (await service.request('GET', `/v1/client/job/${target}/dependencies`)).body
      .data as DependenciesAnswer;
    expect(awaited.dependents.map((edge) => edge.job_id)).toEqual([first]);
  });
});

describe.runIf(process.env.JOBDECK_TEST_STORE === 'postgres')(
  'Idempotency-Key at two instances of one database',
  () => {
    it('submits with one key racing at both make one job, every answer its id', async () => {
      // One secret key for both, as instances sharing a store must have (sealed values too).
      const shared = await sharedStoreSettings();
      const instances = [await serviceWith(shared), await serviceWith(shared)];
      for (let round = 0; round < 5; round++) {
        const key = randomUUID();
        const name = `two-instances-${round}`;
        const answers = await Promise.all(
          // One client's API key at both: another key's request is another request (a 409).
          Array.from({ length: 10 }, (_, i) =>
            submitWith(instances[i % 2]!, key, body(name), instances[0]!.key),
          ),
        );
        const ids = new Set(answers.map(idOf));
        expect(ids.size).toBe(1);
        expect(await jobsNamed(instances[0]!, name)).toEqual([...ids]);
      }
    });
  },
);

describe('Idempotency-Key past its window', () => {
  it('makes a new job once the key expired', async () => {
    const service = await serviceWith({ idempotency: { window: '2s' } });
    const key = randomUUID();
    const unnamed = { job_definition: 't::sh:1', job_queue: QUEUE };
    const first = idOf(await submitWith(service, key, unnamed));
    expect(idOf(await submitWith(service, key, unnamed))).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const later = idOf(await submitWith(service, key, unnamed));
    expect(later).not.toBe(first);
    // And that new job is what the key answers with now.
    expect(idOf(await submitWith(service, key, unnamed))).toBe(later);
  });
});

describe('Idempotency-Key across a crash', () => {
  it('killed between the commit and the answer: the retry after the restart answers with that job, one job', async () => {
    const service = await serviceWith({}, { JOBDECK_FAILPOINT: 'after-insert' });
    const key = randomUUID();
    const payload = body('crash-keyed');
    // The process kills itself once the job is committed, before it answers.
    const lost = await submitWith(service, key, payload).catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(Error);
    await service.exited();
    await service.restart();
    const retried = idOf(await submitWith(service, key, payload));
    expect(await jobsNamed(service, 'crash-keyed')).toEqual([retried]);
  });
});

describe('Idempotency-Key with extensions: false', () => {
  it('is ignored, as the spec has no such header: each submit a job, a malformed key no error', async () => {
    const service = await serviceWith({ extensions: false });
    const key = randomUUID();
    const unnamed = { job_definition: 't::sh:1', job_queue: QUEUE };
    const a = idOf(await submitWith(service, key, unnamed));
    const b = idOf(await submitWith(service, key, unnamed));
    expect(a).not.toBe(b);
    idOf(await submitWith(service, 'x'.repeat(300), unnamed));
  });
});
