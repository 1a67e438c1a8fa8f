import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobExecutionSchema, trendsSchema, type JobRecord, type Trends } from '../../contract';
import { shScript, submit, waitForState } from '../support/jobs';
import { sharedStoreSettings } from '../support/postgres';
import { startService, type TestService } from '../support/service';

/**
 * Trends in a real service on real containers: jobs that ended are counted by the service's
 * own roller into the hour and day they ended in, with their waiting and run times; a restart
 * counts nothing twice; bad input and other projects' queues are refused like elsewhere.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ms = (time: string | null) => Date.parse(time!);

let service: TestService;
let otherKey: string;
/** The times of each ended job of t::default, as the service recorded them. */
const ended: { created: number; started: number; finished: number }[] = [];
let cancelled: JobRecord;

beforeAll(async () => {
  service = await startService();
  otherKey = (await service.cli('keys', 'create', '--project', 'other')).match(/jd_\S+/)![0];
  const ids = [
    await submit(service, shScript('sleep 1')),
    await submit(service, shScript('sleep 1')),
    await submit(service, shScript('sleep 1; exit 3')),
  ];
  for (const [i, id] of ids.entries()) {
    const record = await waitForState(service, id, i < 2 ? 'completed' : 'failed');
    const response = await service.request('GET', `/v1/client/job/${id}/execution`);
    const execution = jobExecutionSchema.parse(response.body.data);
    ended.push({
      created: ms(record.created_at),
      started: ms(execution.started_at),
      finished: ms(execution.finished_at),
    });
  }
  const waiting = await submit(service, { job_definition: 't::echo:1', job_queue: 't::paused' });
  await service.request('POST', `/v1/client/job/${waiting}/cancel`);
  cancelled = await waitForState(service, waiting, 'cancelled');
});
afterAll(() => service.stop());

const trendsOf = async (query: string, key?: string) => {
  const response = await service.request('GET', `/v1/client/trends?${query}`, undefined, key);
  expect(response.status, response.text).toBe(200);
  return trendsSchema.parse(response.body.data);
};

const total = (trends: Trends) =>
  trends.buckets.reduce(
    (sum, b) => ({
      completed: sum.completed + b.completed,
      failed: sum.failed + b.failed,
      cancelled: sum.cancelled + b.cancelled,
    }),
    { completed: 0, failed: 0, cancelled: 0 },
  );

/** Polls until the roller has counted `jobs` ended jobs of the queue (it runs every 2 s). */
async function counted(query: string, jobs: number, on = service): Promise<Trends> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await on.request('GET', `/v1/client/trends?${query}`);
    expect(response.status, response.text).toBe(200);
    const trends = trendsSchema.parse(response.body.data);
    const sums = total(trends);
    if (sums.completed + sums.failed + sums.cancelled >= jobs) return trends;
    if (Date.now() > deadline) throw new Error(`not counted: ${JSON.stringify(trends)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** A percentile is its histogram bucket's middle: within 2^¼ of the real value either way. */
const near = (value: number | null, real: number) => {
  expect(value).not.toBeNull();
  expect(value!).toBeGreaterThanOrEqual(Math.floor(real * 2 ** -0.25));
  expect(value!).toBeLessThanOrEqual(Math.ceil(real * 2 ** 0.25));
};

describe('trends', () => {
  it('counts each ended job once, in the hour it ended, by outcome, with its times', async () => {
    const trends = await counted('queue=t::default&range=24h', 3);
    expect(trends.queue).toBe('t::default');
    expect(trends.range).toBe('24h');
    expect(trends.bucket_seconds).toBe(3600);
    expect(trends.buckets).toHaveLength(24);
    const starts = trends.buckets.map((b) => ms(b.start));
    expect(starts.at(-1)).toBe(Math.floor(Date.now() / HOUR) * HOUR);
    for (const [i, start] of starts.entries()) if (i > 0) expect(start - starts[i - 1]!).toBe(HOUR);
    expect(total(trends)).toEqual({ completed: 2, failed: 1, cancelled: 0 });
    for (const job of ended) {
      const bucket = trends.buckets.find(
        (b) => ms(b.start) === Math.floor(job.finished / HOUR) * HOUR,
      );
      expect(bucket!.completed + bucket!.failed).toBeGreaterThan(0);
    }
    const runs = ended.map((job) => job.finished - job.started);
    const waits = ended.map((job) => job.started - job.created);
    expect(trends.run.jobs).toBe(3);
    expect(trends.wait.jobs).toBe(3);
    near(trends.run.p50_ms, median(runs));
    near(trends.run.p95_ms, Math.max(...runs));
    expect(trends.wait.p95_ms!).toBeGreaterThanOrEqual(trends.wait.p50_ms!);
    expect(trends.wait.p95_ms!).toBeLessThanOrEqual(Math.ceil(Math.max(10, ...waits) * 2 ** 0.25));
  });

  it('counts a job cancelled before it started, without times', async () => {
    const trends = await counted('queue=t::paused', 1);
    expect(trends.range).toBe('24h');
    expect(total(trends)).toEqual({ completed: 0, failed: 0, cancelled: 1 });
    const hour = Math.floor(ms(cancelled.updated_at) / HOUR) * HOUR;
    expect(trends.buckets.find((b) => ms(b.start) === hour)!.cancelled).toBe(1);
    expect(trends.wait).toEqual({ jobs: 0, p50_ms: null, p95_ms: null });
    expect(trends.run).toEqual({ jobs: 0, p50_ms: null, p95_ms: null });
  });

  it('sums the hours into UTC days over 30 days', async () => {
    const trends = await trendsOf('queue=t::default&range=30d');
    expect(trends.bucket_seconds).toBe(86_400);
    expect(trends.buckets).toHaveLength(30);
    expect(ms(trends.buckets.at(-1)!.start)).toBe(Math.floor(Date.now() / DAY) * DAY);
    expect(total(trends)).toEqual({ completed: 2, failed: 1, cancelled: 0 });
    expect(trends.run.jobs).toBe(3);
  });

  it('counts nothing twice after a restart', async () => {
    await service.restart();
    const job = await waitForState(service, await submit(service, shScript('true')), 'completed');
    const trends = await counted('queue=t::default', 4);
    expect(total(trends)).toEqual({ completed: 3, failed: 1, cancelled: 0 });
    expect(job.state).toBe('completed');
  });

  it('refuses bad input with a message naming the field', async () => {
    for (const [query, message] of [
      ['queue=t::default&range=7d', 'range: must be "24h" or "30d"'],
      ['range=24h', 'queue: is required'],
      ['queue=', 'queue: is required'],
      ['queue=t::default&queue=t::paused', 'queue: must be given once'],
      ['queue=t::default&bucket=1h', 'bucket'],
    ] as const) {
      const response = await service.request('GET', `/v1/client/trends?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.ok).toBe(false);
      expect(response.body.message, query).toContain(message);
      expect(response.text).not.toMatch(/\bat .*\.(js|ts):\d+/);
    }
  });

  it("answers another project's queue and an unknown one 404, as the queue operations do", async () => {
    for (const [queue, key] of [
      ['t::nope', undefined],
      ['t::default', otherKey],
    ] as const) {
      const response = await service.request(
        'GET',
        `/v1/client/trends?queue=${queue}`,
        undefined,
        key,
      );
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        ok: false,
        message: `queue: no queue "${queue}" in this project`,
      });
    }
    const theirs = await trendsOf('queue=other::default', otherKey);
    expect(total(theirs)).toEqual({ completed: 0, failed: 0, cancelled: 0 });
  });
});

// Instances share a store only on PostgreSQL.
const onPostgres = process.env.JOBDECK_TEST_STORE === 'postgres';

describe.skipIf(!onPostgres)('trends with two instances on one PostgreSQL store', () => {
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    const shared = await sharedStoreSettings();
    // One after the other: the first creates the schema, the other finds it done.
    a = await startService(shared);
    b = await startService(shared);
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it('count each job once, whichever instance ran it and whichever rolled it up', async () => {
    const ids = [];
    for (let i = 0; i < 12; i++) {
      ids.push(await submit(i % 2 === 0 ? a : b, shScript(i % 4 === 3 ? 'exit 1' : 'true')));
    }
    for (const [i, id] of ids.entries()) {
      await waitForState(a, id, i % 4 === 3 ? 'failed' : 'completed');
    }
    await counted('queue=t::default', 12, a);
    // Both rollers have passed over those changes several times since.
    await new Promise((r) => setTimeout(r, 5000));
    for (const instance of [a, b]) {
      const trends = await counted('queue=t::default&range=30d', 12, instance);
      expect(total(trends)).toEqual({ completed: 9, failed: 3, cancelled: 0 });
      expect(trends.run.jobs).toBe(12);
    }
  });
});
