import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import autocannon from 'autocannon';
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

async function seed(dataDir: string, count: number) {
  const file = 'jobdeck.sqlite';
  // The schema through the real migrations.
  await (await openStore({ store: { type: 'sqlite', path: file }, data_dir: dataDir })).close();
  const db = new SqliteDatabase(join(dataDir, file));
  db.pragma('journal_mode = WAL');
  const job =
    db.prepare(`INSERT INTO jobs (id, project, queue, definition, name, state, system_note,
    schedule_at, created_at, updated_at, image, command_json, env_json, timeout_seconds,
    stop_grace_seconds, network, exit_code, started_at, finished_at)
    VALUES (?, 'b', 'b::eight', 'b::true:1', ?, 'completed', NULL, NULL, ?, ?,
    'jobdeck/busybox:local', '["true"]', '[]', 3600, 10, 'none', 0, ?, ?)`);
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
      const id = randomUUID();
      const at = start + i * 10;
      job.run(id, `true-${id.slice(0, 8)}`, at, at + 5, at + 1, at + 5);
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
  db.close();
  return { sampleId, withoutOutput };
}

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

export async function storeScale(sizes: number[], seconds: number) {
  const results = [];
  for (const size of sizes) {
    const dataDir = mkdtempSync(join(tmpdir(), 'jobdeck-bench-store-'));
    const seedBegin = performance.now();
    const { sampleId, withoutOutput } = await seed(dataDir, size);
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
    const submit = await autocannon({
      url: `${service.baseUrl}/v1/client/job`,
      method: 'POST',
      body: JSON.stringify({ job_definition: 'b::true:1', job_queue: 'b::paused' }),
      connections: 16,
      duration: seconds,
      headers,
    });
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
    });
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}
