import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import autocannon from 'autocannon';
import { DAY_MS, TREND_ROLLER_DEFAULTS, TrendRoller } from '../../server/jobs/trends';
import { openStore } from '../../server/store/open-store';
import { startService } from '../../test/support/service';
import { BENCH_SETTINGS } from '../jobdeck-client';
import { round } from '../stats';

const QUEUES = ['b::paused', 'b::fast', 'b::eight', 'b::wide'];
const OUTCOMES = ['completed', 'completed', 'completed', 'failed', 'cancelled'];
const STORE = { store: { type: 'sqlite' as const, path: 'jobdeck.sqlite' } };

/** A duration spread over a few orders of magnitude around `ms` (log-uniform), as real ones are. */
const spread = (ms: number) => Math.round(ms * 10 ** (Math.random() * 2 - 1));

/**
 * A fresh SQLite store of `count` jobs ended over the last 30 days in four queues, each with the
 * changes a job records (runnable, running, its end), straight through SQL like the store step.
 */
async function seed(dataDir: string, count: number, now: number) {
  await (await openStore({ ...STORE, data_dir: dataDir })).close();
  const db = new SqliteDatabase(join(dataDir, STORE.store.path));
  db.pragma('journal_mode = WAL');
  const job = db.prepare(`INSERT INTO jobs (id, project, queue, definition, name, state,
    created_at, updated_at, image, command_json, env_json, timeout_seconds, stop_grace_seconds,
    network, exit_code, started_at, finished_at)
    VALUES (?, 'b', ?, 'b::true:1', ?, ?, ?, ?, 'jobdeck/busybox:local', '["true"]', '[]', 3600,
    10, 'none', 0, ?, ?)`);
  const transition = db.prepare(
    `INSERT INTO job_transitions (job_id, from_state, to_state, at, note) VALUES (?, ?, ?, ?, NULL)`,
  );
  const start = now - 30 * DAY_MS;
  const step = (30 * DAY_MS) / count;
  db.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      const id = randomUUID();
      const created = Math.round(start + i * step);
      const outcome = OUTCOMES[i % OUTCOMES.length]!;
      const started = created + spread(2000);
      const ended = started + spread(60_000);
      job.run(
        id,
        QUEUES[i % QUEUES.length],
        `true-${id.slice(0, 8)}`,
        outcome,
        created,
        ended,
        started,
        ended,
      );
      transition.run(id, 'submitted', 'runnable', created);
      transition.run(id, 'starting', 'running', started);
      transition.run(id, 'running', outcome, ended);
    }
  })();
  db.close();
}

/**
 * The trends rollups over a store of `count` ended jobs (three changes each): how fast the roller
 * counts a store it first starts on (its batches and pauses as the service runs them), then the
 * trends endpoint's latency over the rollups of 30 days, one reader as a person's page.
 */
export async function trendsScale(count: number, seconds: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'jobdeck-bench-trends-'));
  try {
    const now = Date.now();
    const seedBegin = performance.now();
    await seed(dataDir, count, now);
    const seedSeconds = round((performance.now() - seedBegin) / 1000);

    const store = await openStore({ ...STORE, data_dir: dataDir });
    const quiet = { info() {}, warn() {}, error() {} };
    const rollBegin = performance.now();
    const rolled = await new TrendRoller(store.trends, quiet, TREND_ROLLER_DEFAULTS).pass(now);
    const rollSeconds = (performance.now() - rollBegin) / 1000;
    await store.close();
    const db = new SqliteDatabase(join(dataDir, STORE.store.path), { readonly: true });
    const rowsOf = (period: string) =>
      ['trend_outcomes', 'trend_durations'].map(
        (table) =>
          (
            db
              .prepare(`SELECT count(*) AS n FROM ${table} WHERE queue = ? AND period = ?`)
              .get(QUEUES[0], period) as { n: number }
          ).n,
      );
    const rows = { hour: rowsOf('hour'), day: rowsOf('day') };
    db.close();

    // Retention would delete half the seeded jobs meanwhile: the figure is of the reads alone.
    const service = await startService(
      { ...BENCH_SETTINGS, retention: { keep_finished_jobs: 'forever' } },
      dataDir,
    );
    const latency: Record<string, { p50Ms: number; p99Ms: number; requestsPerSecond: number }> = {};
    try {
      for (const range of ['24h', '30d']) {
        const read = await autocannon({
          url: `${service.baseUrl}/v1/client/trends?queue=${QUEUES[0]}&range=${range}`,
          connections: 1,
          duration: seconds,
          headers: { authorization: `Bearer ${service.key}` },
        });
        if (read.non2xx + read.errors > 0)
          throw new Error(`trends ${range}: ${read.non2xx} refused`);
        latency[range] = {
          p50Ms: read.latency.p50,
          p99Ms: read.latency.p99,
          requestsPerSecond: round(read.requests.average, 0),
        };
      }
    } finally {
      await service.stop();
    }
    return {
      storedJobs: count,
      seedSeconds,
      changesRolled: rolled,
      rollSeconds: round(rollSeconds),
      changesPerSecond: round(rolled / rollSeconds, 0),
      endedJobsPerSecond: round(count / rollSeconds, 0),
      rowsPerQueue: rows,
      latency,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
