import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { openStore } from '../../server/store/open-store';
import { createDatabase, shareCluster, startPostgres } from '../../test/support/postgres';
import { submit } from '../../test/support/jobs';
import { startService, type TestService } from '../../test/support/service';
import { BENCH_SETTINGS, rssMiB } from '../jobdeck-client';
import { round, sleep, summary } from '../stats';
import { seedPostgres, seedSqlite, type StoreSettings } from './store-seed';
import { openStream } from './watchers';

/** The list's filters a person uses, each as the console asks for a page (50 jobs, counted). */
const listFilters = (middle: number) => ({
  'state=completed': 'state=completed',
  'state=failed (no job)': 'state=failed',
  'queue=b::eight': 'queue=b::eight',
  'name prefix (1 in 16)': 'name=true-0',
  'name prefix (1 in 4,096)': 'name=true-00a',
  'an hour of time': `created_after=${new Date(middle).toISOString()}&created_before=${new Date(middle + 3600_000).toISOString()}`,
  'label, rare value': 'label=ticket=OPS-1',
  'label, common value': 'label=team=t3',
  'label, any value': 'label=team',
  'label and state': 'label=team=t3&state=completed',
  'label and a state no job is in': 'label=team=t3&state=failed',
});

/**
 * Every other read the console makes, as its pages ask (the lists above aside): a job's page for
 * the job in the middle, the list's first page and a keyset page half the store deep, and the
 * pages that list what is not jobs. Any of them could be the one that grows with the store.
 */
const consoleReads = (jobId: string, deepCursor: string) => ({
  'the jobs page, no filter': '/v1/client/jobs',
  'a page half the store deep (cursor)': `/v1/client/jobs?cursor=${deepCursor}`,
  'a page half the store deep, by state': `/v1/client/jobs?state=completed&cursor=${deepCursor}`,
  "a job's transitions": `/v1/client/job/${jobId}/transitions`,
  "a job's output": `/v1/client/job/${jobId}/logs`,
  "a job's execution": `/v1/client/job/${jobId}/execution`,
  "a job's attempts": `/v1/client/job/${jobId}/attempts`,
  "a job's dependencies": `/v1/client/job/${jobId}/dependencies`,
  "a queue's trends, a day": '/v1/client/trends?queue=b%3A%3Aeight&range=24h',
  "a queue's trends, 30 days": '/v1/client/trends?queue=b%3A%3Aeight&range=30d',
  definitions: '/v1/client/definitions',
  schedules: '/v1/client/schedules',
  'bulk actions': '/v1/client/bulk-actions',
  'saved views': '/v1/client/views',
  'audit trail': '/v1/client/audit',
  'who am I': '/v1/client/whoami',
});

/** The cursor the list hands out at the store's middle job: its next page is half the store deep. */
async function cursorAt(service: TestService, middle: number) {
  const response = await fetch(
    `${service.baseUrl}/v1/client/jobs?limit=1&created_before=${new Date(middle).toISOString()}`,
    { headers: { authorization: `Bearer ${service.key}` } },
  );
  const { data } = (await response.json()) as { data: { next_cursor: string | null } };
  if (!data.next_cursor) throw new Error('no job before the middle');
  return data.next_cursor;
}

/**
 * An ended job's final move with its output kept, through the store itself (the runner's last
 * write for every job): its cost must not grow with the outputs already kept.
 */
async function keepOutputLatency(
  settings: StoreSettings,
  dataDir: string,
  jobIds: readonly string[],
) {
  const store = await openStore({ store: settings, data_dir: dataDir });
  try {
    const took: number[] = [];
    for (const [i, id] of jobIds.entries()) {
      const logs = {
        lines: [
          { stream: 'stdout' as const, at: '2026-11-27T00:00:00.000000000Z', text: `line ${i}\n` },
        ],
        truncated: false,
      };
      const { state } = (await store.jobs.getJob(id))!;
      const budget = { project: 'b', maxStoredBytes: 1024 ** 3, savedAt: Date.now() };
      const begin = performance.now();
      // As the runner keeps it: in the job's final move.
      await store.jobs.moveJob({
        id,
        from: state,
        to: 'completed',
        at: budget.savedAt,
        note: null,
        keptOutput: { logs, budget },
      });
      took.push(performance.now() - begin);
    }
    return summary(took);
  } finally {
    await store.close();
  }
}

/** As the dispatcher counts a waiting job's place. */
const PLACES_COUNTED = 1000;

/**
 * What Job Detail adds for a waiting job: its place in its queue, for the last of the jobs the
 * submit run left waiting (the worst case: it counts every one before it).
 */
async function placeLatency(settings: StoreSettings, dataDir: string, queue: string) {
  const store = await openStore({ store: settings, data_dir: dataDir });
  try {
    const [last] = await store.jobs.listJobs({
      project: 'b',
      states: ['runnable'],
      queue,
      limit: 1,
    });
    if (!last) throw new Error(`no job waits in ${queue}`);
    const took: number[] = [];
    let waiting = 0;
    for (let i = 0; i < 200; i += 1) {
      const begin = performance.now();
      ({ waiting } = await store.jobs.placeInQueue({
        queue,
        seq: last.seq,
        now: Date.now(),
        atMost: PLACES_COUNTED,
      }));
      took.push(performance.now() - begin);
    }
    return { waiting, ms: summary(took) };
  } finally {
    await store.close();
  }
}

/**
 * A change's way to a subscriber on a big store: a submit, until its job's event arrives on an
 * open event stream (one at a time). A stream reads each page of changes from the store.
 */
async function eventDelay(service: TestService, samples: number) {
  let received = '';
  let waiting: { id: string; arrived: () => void } | undefined;
  const stream = await openStream(service, (chunk) => {
    received += chunk.toString();
    if (waiting && received.includes(waiting.id)) waiting.arrived();
  });
  try {
    const took: number[] = [];
    for (let i = 0; i < samples; i += 1) {
      // Apart by more than a send round (25 ms), so that each change starts one: a change made
      // during a round goes out with the next, and the figure would be that wait.
      await sleep(50);
      received = '';
      const begin = performance.now();
      const id = await submit(service, { job_definition: 'b::true:1', job_queue: 'b::paused' });
      await new Promise<void>((resolve) => {
        waiting = { id, arrived: resolve };
        if (received.includes(id)) resolve();
      });
      took.push(performance.now() - begin);
    }
    return summary(took);
  } finally {
    stream.close();
  }
}

export type StoreKind = StoreSettings['type'];

async function measure(kind: StoreKind, size: number, seconds: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'jobdeck-bench-store-'));
  try {
    const seedBegin = performance.now();
    const { store, sampleId, withoutOutput, middle } =
      kind === 'sqlite'
        ? await seedSqlite(dataDir, size)
        : await seedPostgres(await createDatabase(), dataDir, size);
    const seedSeconds = round((performance.now() - seedBegin) / 1000);
    const keepOutputMs = await keepOutputLatency(store, dataDir, withoutOutput);
    const startBegin = performance.now();
    const service = await startService({ ...BENCH_SETTINGS, store }, dataDir);
    const startupMs = round(performance.now() - startBegin, 0);
    const idleRssMiB = rssMiB(service.pid());
    const headers = { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' };
    const detail = await autocannon({
      url: `${service.baseUrl}/v1/client/job/${sampleId}`,
      connections: 16,
      duration: seconds,
      headers,
    });
    // One reader: the latency a person's page read sees (four at once queue on one thread).
    const oneReader = async (path: string) => {
      const read = await autocannon({
        url: `${service.baseUrl}${path}`,
        connections: 1,
        duration: Math.max(1, seconds / 2),
        headers,
      });
      if (read.non2xx + read.errors > 0) throw new Error(`${path}: ${read.non2xx} refused`);
      return { p99Ms: read.latency.p99, requestsPerSecond: round(read.requests.average, 0) };
    };
    // Before the submits: they leave thousands of jobs waiting, which the lists would pass too.
    const list: { filter: string; p99Ms: number; requestsPerSecond: number }[] = [];
    for (const [filter, query] of Object.entries(listFilters(middle))) {
      list.push({ filter, ...(await oneReader(`/v1/client/jobs?${query}`)) });
    }
    const overview = await oneReader('/v1/client/queues');
    const reads: { read: string; p99Ms: number; requestsPerSecond: number }[] = [];
    const deepCursor = await cursorAt(service, middle);
    for (const [read, path] of Object.entries(consoleReads(sampleId, deepCursor))) {
      reads.push({ read, ...(await oneReader(path)) });
    }
    const eventMs = await eventDelay(service, 100);
    const submits = await autocannon({
      url: `${service.baseUrl}/v1/client/job`,
      method: 'POST',
      body: JSON.stringify({ job_definition: 'b::true:1', job_queue: 'b::paused' }),
      connections: 16,
      duration: seconds,
      headers,
    });
    await service.stop();
    const place = await placeLatency(store, dataDir, 'b::paused');
    return {
      store: kind,
      storedJobs: size,
      seedSeconds,
      keepOutputMs,
      startupMs,
      idleRssMiB,
      detailP99Ms: detail.latency.p99,
      detailRequestsPerSecond: round(detail.requests.average, 0),
      submitPerSecond: round(submits.requests.average, 0),
      submitP99Ms: submits.latency.p99,
      eventMs,
      errors: detail.non2xx + submits.non2xx + detail.errors + submits.errors,
      list,
      overview,
      reads,
      waitingInQueue: place.waiting,
      placeMs: place.ms,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Each size on a fresh store of that kind. PostgreSQL's is a durable cluster of its own (each
 * commit waits for its WAL on disk, as in production), started here.
 */
export async function storeScale(kind: StoreKind, sizes: number[], seconds: number) {
  // BENCH_PG_SETTINGS: the cluster's own settings, space-separated (random_page_cost=1.1 …).
  const settings = process.env.BENCH_PG_SETTINGS?.split(/\s+/).filter(Boolean);
  const cluster =
    kind === 'postgres' ? await startPostgres({ durable: true, settings }) : undefined;
  if (cluster) shareCluster(cluster);
  try {
    const results = [];
    for (const size of sizes) results.push(await measure(kind, size, seconds));
    return results;
  } finally {
    cluster?.stop();
  }
}
