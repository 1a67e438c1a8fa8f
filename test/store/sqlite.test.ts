import { MIGRATION_NAMES } from '../../server/store/migrations/names';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { openStore } from '../../server/store/open-store';
import { newJob, T0 } from './new-job';

const DAY_MS = 86_400_000;

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'jobdeck-sqlite-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const sqliteIn = (dir: string, path = 'jobdeck.sqlite') => ({
  store: { type: 'sqlite' as const, path },
  data_dir: dir,
});
const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('the SQLite driver', () => {
  it('creates the database file and its -wal and -shm readable by the owner only', async () => {
    const store = await openStore(sqliteIn(dataDir, 'nested/dir/jobdeck.sqlite'));
    await store.jobs.insertJob(newJob(), 'fingerprint');
    const dir = join(dataDir, 'nested', 'dir');
    const files = readdirSync(dir);
    expect(files.sort()).toEqual(['jobdeck.sqlite', 'jobdeck.sqlite-shm', 'jobdeck.sqlite-wal']);
    for (const file of files) expect(modeOf(join(dir, file)), file).toBe(0o600);
    await store.close();
  });

  it('opens a file written by the release before PostgreSQL: data kept, only the new migrations run', async () => {
    const file = join(dataDir, 'jobdeck.sqlite');
    copyFileSync(resolve(import.meta.dirname, 'fixtures', 'release-0.1.sqlite'), file);
    chmodSync(file, 0o644); // as that release left it
    // Finished two hours ago: the overview's counts (030) must start from the jobs already there.
    const finishedAt = Date.now() - 2 * 3_600_000;
    const raw = new SqliteDatabase(file);
    raw.prepare("UPDATE jobs SET finished_at = ? WHERE id = 'job-from-before'").run(finishedAt);
    raw.close();
    const store = await openStore(sqliteIn(dataDir));
    try {
      // Every migration after 0.1's two, in order.
      expect(store.migrated).toEqual(MIGRATION_NAMES.slice(2));
      expect(modeOf(file)).toBe(0o600);
      const day = await store.jobs.countByQueue({
        queues: ['p::default'],
        since: Date.now() - 24 * 3_600_000,
        recentSince: Date.now() - 3_600_000,
      });
      expect(day.find((c) => c.state === 'completed')).toMatchObject({ count: 1, recent: 0 });
      expect(await store.meta.storeId()).toBe('76ff9718-6217-4192-ab89-c5ac56ea2153');
      expect(
        await store.keys.authenticate('jd_EhOSiT-bNqKoc5mvUSp_5HbvqV73Kj8o0P_JXhcNktM'),
      ).toMatchObject({ project: 'p' });
      expect(await store.jobs.getJob('job-from-before')).toMatchObject({
        state: 'completed',
        exitCode: 0,
        containerId: 'c1',
        owner: null,
        node: null,
      });
      expect((await store.jobs.transitions('job-from-before')).map((t) => t.to)).toEqual([
        'submitted',
        'runnable',
        'starting',
        'running',
        'completed',
      ]);
      // Kept before lines were: its text, and no lines.
      expect(await store.jobs.getLogs('job-from-before')).toEqual({
        lines: [],
        text: 'hi\n',
        truncated: false,
      });
      expect(await store.meta.changedDefinitions(new Map([['p::echo:1', 'fp-changed']]))).toEqual([
        'p::echo:1',
      ]);
      // New rows go on after the old ones, and the job left waiting can be claimed.
      const claimed = await store.jobs.claimRunnable(
        {
          queue: 'p::default',
          limit: 4,
          queueMax: 4,
          serviceMax: 4,
          owner: 'local',
          at: Date.now(),
        },
        () => 'creating',
      );
      expect(claimed.map((j) => [j.id, j.owner])).toEqual([['runnable-from-before', 'local']]);
      const job = newJob();
      await store.jobs.insertJob(job, 'fp-echo');
      expect((await store.jobs.getJob(job.id))!.seq).toBeGreaterThan(claimed[0]!.seq);
    } finally {
      await store.close();
    }
    const reopened = await openStore(sqliteIn(dataDir));
    expect(reopened.migrated).toEqual([]);
    await reopened.close();
    // Counted by the migration, two hours back, not read from the window's edges.
    const counted = new SqliteDatabase(file, { readonly: true });
    expect(counted.prepare('SELECT queue, state, jobs FROM queue_finished_counts').all()).toEqual([
      { queue: 'p::default', state: 'completed', jobs: 1 },
    ]);
    counted.close();
  });

  it('an older file keeps the pages retention frees (new jobs reuse them) until prune --vacuum rewrites it; then it gives them back', async () => {
    const file = join(dataDir, 'jobdeck.sqlite');
    copyFileSync(resolve(import.meta.dirname, 'fixtures', 'release-0.1.sqlite'), file);
    const store = await openStore(sqliteIn(dataDir));
    const bulky = 'x'.repeat(4000);
    const finishOld = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const job = newJob({ command: ['echo', bulky], createdAt: T0 - DAY_MS });
        await store.jobs.insertJob(job, 'fp-echo', { to: 'runnable', note: null });
        const at = T0 - DAY_MS;
        await store.jobs.moveJob({
          id: job.id,
          from: 'runnable',
          to: 'cancelled',
          at,
          note: bulky,
          fields: { finishedAt: at },
        });
      }
      await store.jobs.insertJob(newJob(), 'fp-echo'); // the newest change's job stays
    };
    const pages = () => {
      const db = new SqliteDatabase(file, { readonly: true });
      try {
        return Number(db.pragma('page_count', { simple: true }));
      } finally {
        db.close();
      }
    };
    const prune = async () => {
      while (
        (await store.retention.pruneFinished({ queue: 'p::default', before: T0, limit: 200 })) > 0
      );
      let given = 0;
      for (let step = -1; step !== 0; given += step) step = await store.retention.reclaimSpace();
      return given;
    };
    try {
      // The service says so at start, once: not for a file made by this version (below).
      const said: string[] = [];
      store.startUpkeep!({ info: (line) => said.push(line), warn: () => {} });
      await vi.waitFor(() => expect(said.join('\n')).toMatch(/jobdeck prune --vacuum/));
      await finishOld(500);
      const full = pages();
      expect(await prune()).toBe(0);
      expect(pages()).toBe(full);
      // Kept, and reused: as many jobs again take next to no more room.
      await finishOld(500);
      await prune();
      expect(pages()).toBeLessThan(full * 1.05);

      const { beforeBytes, afterBytes } = await store.vacuum!();
      expect(afterBytes).toBeLessThan(beforeBytes / 4);
      const fresh = await openStore(sqliteIn(dataDir, 'fresh.sqlite'));
      const quiet: string[] = [];
      fresh.startUpkeep!({ info: (line) => quiet.push(line), warn: () => {} });
      await new Promise((r) => setTimeout(r, 100));
      await fresh.close();
      expect(quiet).toEqual([]);
      await finishOld(500);
      expect(await prune()).toBeGreaterThan(500 * 4000);
    } finally {
      await store.close();
    }
  });

  it('reads unfinished jobs through the partial indexes that hold them alone, not the whole table', async () => {
    const planOf = await plansOf(async (store) => {
      const job = newJob({ name: 'nightly' });
      await store.jobs.insertJob(job, 'fingerprint');
      const again = await store.jobs.insertJob(newJob({ name: 'nightly' }), 'fingerprint');
      expect(again).toEqual({ inserted: false, nameHeldBy: job.id });
      await store.jobs.unfinishedArrayParents();
      await store.jobs.countByQueue({ queues: ['p::default'], since: T0, recentSince: T0 });
    });
    expect(planOf('"array_size" is not null')).toContain('USING INDEX jobs_unfinished_arrays');
    expect(planOf('"name" = ?')).toContain('USING INDEX jobs_active_name (queue=? AND name=?)');
    expect(planOf('count(*) as "count" from "jobs" where')).toContain(
      'USING INDEX jobs_active_name',
    );
  });

  it("reads an event stream's page by the changes' numbers, not through every job of the project", async () => {
    const planOf = await plansOf(async (store) => {
      const job = newJob();
      await store.jobs.insertJob(job, 'fingerprint');
      const changes = await store.jobs.changesAfter({
        project: job.project,
        afterSeq: 0,
        uptoSeq: 10,
        limit: 200,
      });
      expect(changes.map((change) => [change.job.id, change.transition.to])).toEqual([
        [job.id, 'submitted'],
      ]);
    });
    // Leading with the project's index read every job of the project for each page: 108 ms a
    // page at 10⁵ stored jobs, against 0.9 ms this way.
    expect(planOf('"change_seq"')).toMatch(
      /^SEARCH t USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\) \| SEARCH j USING INDEX \S+ \(id=\?\)$/,
    );
  });
  it("counts the overview's last day from the kept counts and the index's edges, not every job that finished", async () => {
    const planOf = await plansOf(async (store) => {
      await store.jobs.countByQueue({ queues: ['p::default'], since: T0, recentSince: T0 });
    });
    // Counting the whole day through the index was 784 ms with 10⁶ jobs finished in it.
    expect(planOf('from "queue_finished_counts"')).toMatch(
      /^SEARCH queue_finished_counts USING (PRIMARY KEY|INDEX \S+) \(queue=\? AND bucket>\?\)/,
    );
    expect(planOf('"finished_at" < ?')).toMatch(
      /^SEARCH jobs USING COVERING INDEX jobs_queue_finished \(queue=\? AND finished_at>\? AND finished_at<\?\)/,
    );
  });
  it("counts a label's jobs in a state from the labels' own index, reading no job row", async () => {
    const planOf = await plansOf(async (store) => {
      await store.jobs.insertJob(newJob({ labels: { team: 'data' } }), 'fingerprint');
      const filter = { project: 'p', states: ['submitted' as const] };
      for (const labels of [[{ key: 'team', value: 'data' }], [{ key: 'team' }]]) {
        expect(await store.jobs.countJobs({ ...filter, labels }, 10)).toBe(1);
        expect(await store.jobs.listJobs({ ...filter, labels, limit: 50 })).toHaveLength(1);
      }
    });
    // A page by one state walks the same index, in order: no sort of the label's jobs.
    expect(planOf('"driver"."value" = ? and "driver"."state" = ?')).toBe(
      'SEARCH driver USING COVERING INDEX job_labels_by_value_state (project=? AND key=? AND value=? AND state=?) | SEARCH jobs USING INTEGER PRIMARY KEY (rowid=?)',
    );
    expect(planOf('"driver"."key" = ? and "driver"."state" = ?')).toBe(
      'SEARCH driver USING COVERING INDEX job_labels_by_key_state (project=? AND key=? AND state=?) | SEARCH jobs USING INTEGER PRIMARY KEY (rowid=?)',
    );
    // Each labelled job's row read for its state was 50 ms at 10⁷ stored jobs (docs/scaling.md).
    expect(planOf('"driver"."value" = ? and "driver"."state" in')).toBe(
      'CO-ROUTINE bounded | SEARCH driver USING COVERING INDEX job_labels_by_value_state (project=? AND key=? AND value=? AND state=?) | SCAN bounded',
    );
    expect(planOf('"driver"."key" = ? and "driver"."state" in')).toBe(
      'CO-ROUTINE bounded | SEARCH driver USING COVERING INDEX job_labels_by_key_state (project=? AND key=? AND state=?) | SCAN bounded',
    );
  });
  it('lists a state that few jobs are in from the state index, not by walking every job of the project', async () => {
    const planOf = await plansOf(async (store) => {
      const job = newJob();
      await store.jobs.insertJob(job, 'fingerprint');
      const listed = await store.jobs.listJobs({
        project: job.project,
        states: ['submitted'],
        limit: 50,
      });
      expect(listed.map((j) => j.id)).toEqual([job.id]);
    });
    // Walking the project newest first read every job for a state none was in: 521 ms at 10⁶.
    const page = planOf('order by +jobs.seq desc');
    expect(page).toMatch(
      /^SEARCH jobs USING INDEX jobs_state_\w+ \(state=\?\) \| USE TEMP B-TREE FOR ORDER BY$/,
    );
  });
  it("reads fair share's last day through the ends' and the state's indexes, not every job and attempt stored", async () => {
    const planOf = await plansOf(async (store) => {
      expect(await store.jobs.runsSince(T0, { cpus: 1, memoryBytes: 1 })).toEqual([]);
    });
    // Each instance reads it once a minute: reading every job and attempt took 615 ms at 10⁶ jobs
    // stored (36,000 runs in the day), 224 ms this way (docs/benchmarks.md).
    expect(planOf('or "finished_at" >= ?')).toBe(
      'MULTI-INDEX OR | INDEX 1 | SEARCH jobs USING INDEX jobs_state_not_before (state=?) | INDEX 2 | SEARCH jobs USING INDEX jobs_by_end (finished_at>?)',
    );
    expect(planOf('from "job_attempts" as "a"')).toMatch(
      /^SEARCH a USING INDEX job_attempts_by_end \(finished_at>\?\) \| SEARCH jobs USING INDEX \S+ \(id=\?\)$/,
    );
  });
});

/**
 * Runs `use` on a store, then gives the query plan of any statement it prepared, found by a
 * fragment of its text: what the store runs, read back from its own connection's driver, not a
 * copy of it.
 */
async function plansOf(use: (store: Awaited<ReturnType<typeof openStore>>) => Promise<void>) {
  const prepare = vi.spyOn(SqliteDatabase.prototype, 'prepare');
  const store = await openStore(sqliteIn(dataDir));
  try {
    await use(store);
  } finally {
    await store.close();
  }
  const statements = prepare.mock.calls.map(([source]) => source);
  prepare.mockRestore();
  const db = new SqliteDatabase(join(dataDir, 'jobdeck.sqlite'), { readonly: true });
  onTestFinished(() => {
    db.close();
  });
  return (fragment: string) => {
    const source = statements.find((s) => s.includes(fragment));
    expect(source, fragment).toBeDefined();
    const parameters = Array<null>(source!.split('?').length - 1).fill(null);
    return (db.prepare(`EXPLAIN QUERY PLAN ${source!}`).all(...parameters) as { detail: string }[])
      .map((row) => row.detail)
      .join(' | ');
  };
}
