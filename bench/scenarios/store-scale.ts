import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import autocannon from 'autocannon';
import { v7 as timeOrderedUuid } from 'uuid';
import { openStore } from '../../server/store/open-store';
import { startService } from '../../test/support/service';
import { BENCH_SETTINGS, rssMiB } from '../jobdeck-client';
import { round, summary } from '../stats';

/**
 * Fills a fresh SQLite store (the embedded default) with `count` finished jobs, one transition
 * and a small kept output each, straight through SQL: a million submits over HTTP would take
 * longer than the figure is worth.
 */
/** Jobs whose output the figure keeps: seeded last, without one. */
const KEPT_OUTPUTS = 200;
/** One job in this many has the rare label. */
const RARE_EVERY = 10_000;

async function seed(dataDir: string, count: number) {
  const file = 'jobdeck.sqlite';
  // The schema through the real migrations.
  await (await openStore({ store: { type: 'sqlite', path: file }, data_dir: dataDir })).close();
  const db = new SqliteDatabase(join(dataDir, file));
  db.pragma('journal_mode = WAL');
  const job =
    db.prepare(`INSERT INTO jobs (id, project, queue, definition, name, state, system_note,
    schedule_at, created_at, updated_at, image, command_json, env_json, timeout_seconds,
    stop_grace_seconds, network, exit_code, started_at, finished_at, labels_json)
    VALUES (?, 'b', 'b::eight', 'b::true:1', ?, 'completed', NULL, NULL, ?, ?,
    'jobdeck/busybox:local', '["true"]', '[]', 3600, 10, 'none', 0, ?, ?, ?)
    RETURNING seq`);
  const label = db.prepare(
    `INSERT INTO job_labels (job_seq, project, key, value) VALUES (?, 'b', ?, ?)`,
  );
  const transition = db.prepare(
    `INSERT INTO job_transitions (job_id, from_state, to_state, at, note) VALUES (?, 'running', 'completed', ?, NULL)`,
  );
  const output = db.prepare(
    `INSERT INTO job_logs (job_id, text, truncated, project, stored_bytes, saved_at) VALUES (?, '', 0, 'b', 100, ?)`,
  );
  let sampleId = '';
  const withoutOutput: string[] = [];
  const start = Date.now() - count * 10;
  db.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      const at = start + i * 10;
      // Time-ordered, as the service makes them: each id lands at the id index's end, as in a
      // real store (random ones land anywhere in it).
      const id = timeOrderedUuid({ msecs: at });
      // Every job in one of ten teams; one in RARE_EVERY has a ticket too.
      const team = `t${i % 10}`;
      const rare = i % RARE_EVERY === 0;
      const labels = rare ? { team, ticket: 'OPS-1' } : { team };
      const { seq } = job.get(
        id,
        // Spread evenly, for the prefix filters (1 in 16, 1 in 4,096).
        `true-${randomUUID().slice(0, 8)}`,
        at,
        at + 5,
        at + 1,
        at + 5,
        JSON.stringify(labels),
      ) as { seq: number };
      label.run(seq, 'team', team);
      if (rare) label.run(seq, 'ticket', 'OPS-1');
      transition.run(id, at + 5);
      if (i < count - KEPT_OUTPUTS) output.run(id, at + 5);
      else withoutOutput.push(id);
      if (i === Math.floor(count / 2)) sampleId = id;
    }
  })();
  // What the kept outputs add up to, as the store keeps it (migration 015).
  db.prepare(`INSERT OR REPLACE INTO project_output (project, stored_bytes) VALUES ('b', ?)`).run(
    (count - KEPT_OUTPUTS) * 100,
  );
  // The trends rolled up to the last change, as on a store that has run all along: a first pass
  // over millions of changes (an upgrade's, once) would share the thread with every figure here.
  db.prepare(
    `INSERT INTO trend_cursor (id, seq) VALUES (1, (SELECT max(seq) FROM job_transitions))`,
  ).run();
  db.close();
  return { sampleId, withoutOutput, middle: start + Math.floor(count / 2) * 10 };
}

/** The list's filters a person uses, each as the console asks for a page (50 jobs, counted). */
const listFilters = (middle: number) => ({
  'state=completed': 'state=completed',
  'queue=b::eight': 'queue=b::eight',
  'name prefix (1 in 16)': 'name=true-0',
  'name prefix (1 in 4,096)': 'name=true-00a',
  'an hour of time': `created_after=${new Date(middle).toISOString()}&created_before=${new Date(middle + 3600_000).toISOString()}`,
  'label, rare value': 'label=ticket=OPS-1',
  'label, common value': 'label=team=t3',
  'label, any value': 'label=team',
  'label and state': 'label=team=t3&state=completed',
});

/**
 * Keeping an ended job's output, through the store itself (the runner's last write for every job):
 * its cost must not grow with the outputs already kept.
 */
async function keepOutputLatency(dataDir: string, jobIds: readonly string[]) {
  const store = await openStore({
    store: { type: 'sqlite', path: 'jobdeck.sqlite' },
    data_dir: dataDir,
  });
  try {
    const took: number[] = [];
    for (const [i, id] of jobIds.entries()) {
      const logs = {
        lines: [
          { stream: 'stdout' as const, at: '2026-11-27T00:00:00.000000000Z', text: `line ${i}\n` },
        ],
        truncated: false,
      };
      const begin = performance.now();
      await store.jobs.saveLogs(id, logs, {
        project: 'b',
        maxStoredBytes: 1024 ** 3,
        savedAt: Date.now(),
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
async function placeLatency(dataDir: string, queue: string) {
  const store = await openStore({
    store: { type: 'sqlite', path: 'jobdeck.sqlite' },
    data_dir: dataDir,
  });
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
      ({ waiting } = await store.jobs.placeInQueue(queue, last.seq, Date.now(), PLACES_COUNTED));
      took.push(performance.now() - begin);
    }
    return { waiting, ms: summary(took) };
  } finally {
    await store.close();
  }
}

export async function storeScale(sizes: number[], seconds: number) {
  const results = [];
  for (const size of sizes) {
    const dataDir = mkdtempSync(join(tmpdir(), 'jobdeck-bench-store-'));
    const seedBegin = performance.now();
    const { sampleId, withoutOutput, middle } = await seed(dataDir, size);
    const seedSeconds = round((performance.now() - seedBegin) / 1000);
    const keepOutputMs = await keepOutputLatency(dataDir, withoutOutput);
    const startBegin = performance.now();
    const service = await startService(BENCH_SETTINGS, dataDir);
    const startupMs = round(performance.now() - startBegin, 0);
    const idleRssMiB = rssMiB(service.pid());
    const headers = { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' };
    const detail = await autocannon({
      url: `${service.baseUrl}/v1/client/job/${sampleId}`,
      connections: 16,
      duration: seconds,
      headers,
    });
    // Before the submits: they leave thousands of jobs waiting, which the lists would pass too.
    const list: { filter: string; p99Ms: number; requestsPerSecond: number }[] = [];
    for (const [filter, query] of Object.entries(listFilters(middle))) {
      const page = await autocannon({
        url: `${service.baseUrl}/v1/client/jobs?${query}`,
        // One reader: the latency a person's page read sees (four at once queue on one thread).
        connections: 1,
        duration: Math.max(1, seconds / 2),
        headers,
      });
      if (page.non2xx + page.errors > 0) throw new Error(`list ${query}: ${page.non2xx} refused`);
      list.push({
        filter,
        p99Ms: page.latency.p99,
        requestsPerSecond: round(page.requests.average, 0),
      });
    }
    const submit = await autocannon({
      url: `${service.baseUrl}/v1/client/job`,
      method: 'POST',
      body: JSON.stringify({ job_definition: 'b::true:1', job_queue: 'b::paused' }),
      connections: 16,
      duration: seconds,
      headers,
    });
    await service.stop();
    const place = await placeLatency(dataDir, 'b::paused');
    results.push({
      storedJobs: size,
      seedSeconds,
      keepOutputMs,
      startupMs,
      idleRssMiB,
      detailP99Ms: detail.latency.p99,
      detailRequestsPerSecond: round(detail.requests.average, 0),
      submitPerSecond: round(submit.requests.average, 0),
      errors: detail.non2xx + submit.non2xx + detail.errors + submit.errors,
      list,
      waitingInQueue: place.waiting,
      placeMs: place.ms,
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}
