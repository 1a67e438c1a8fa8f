import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPool } from '../../server/store/postgres/pool';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { KEY_CACHE_MS } from '../../server/store/sql/cached-key-store';
import { SqlKeyStore } from '../../server/store/sql/key-store';
import { createDatabase, createMigratedDatabase } from '../support/postgres';
import { newJob } from './new-job';

describe('the PostgreSQL driver', () => {
  it('reads bigint as a number, and refuses one a number cannot hold exactly', async () => {
    const pool = createPool(await createDatabase(), 1);
    try {
      const { rows } = await pool.query<{ ms: unknown; count: unknown }>(
        'SELECT 1795303462130::bigint AS ms, count(*) AS count FROM (VALUES (1), (2)) v',
      );
      expect(rows[0]).toEqual({ ms: 1795303462130, count: 2 });
      await expect(pool.query('SELECT 9007199254740993::bigint')).rejects.toThrow(
        /beyond the integers a JS number holds exactly/,
      );
    } finally {
      await pool.end();
    }
  });

  it('survives the server ending a connection checked out inside a transaction (a frozen instance past the idle-in-transaction timeout)', async () => {
    const pool = createPool(await createDatabase(), 1);
    const admin = createPool(await createDatabase(), 1);
    try {
      const client = await pool.connect();
      await client.query('BEGIN');
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // What idle_in_transaction_session_timeout does to a paused instance's open transaction.
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      // The server's FATAL message reaches the client as an 'error' event: with no listener,
      // it is thrown from the socket's handler and the whole process ends (Vitest fails the run).
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(client.query('SELECT 1')).rejects.toThrow();
      client.release();
      // The pool dropped the dead connection and opens another.
      expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
      await admin.end();
    }
  });

  it('runs a kept (named) statement again after another process added a column to its table', async () => {
    const url = await createDatabase();
    // One connection: the statement kept on it is the one the ALTER makes stale.
    const store = await openStore({
      store: { type: 'postgres', url, pool_size: 1 },
      data_dir: '.',
    });
    const other = createPool(url, 1);
    try {
      const job = newJob();
      await store.jobs.insertJob(job, 'fingerprint');
      expect((await store.jobs.getJob(job.id))?.id).toBe(job.id);
      await other.query('ALTER TABLE jobs ADD COLUMN added_by_a_later_release text');
      expect((await store.jobs.getJob(job.id))?.id).toBe(job.id);
      expect((await store.jobs.getJob(job.id))?.id).toBe(job.id);
    } finally {
      await other.end();
      await store.close();
    }
  });
});

describe('the overview counts on PostgreSQL (migration 030)', () => {
  it('counts the jobs that finished before it was applied, over its shards', async () => {
    const url = await createDatabase();
    const config = { store: { type: 'postgres' as const, url, pool_size: 2 }, data_dir: '.' };
    const now = Date.now();
    const store = await openStore(config);
    for (let i = 0; i < 12; i += 1) await store.jobs.insertJob(newJob(), 'fingerprint');
    await store.close();
    const raw = createPool(url, 1);
    try {
      // Finished 10 minutes apart over the last two hours, then 030 undone as if never applied.
      await raw.query(`UPDATE jobs SET state = 'completed', finished_at = $1 - seq * 600000`, [
        now,
      ]);
      await raw.query(`DROP TABLE queue_finished_counts;
        DROP TRIGGER jobs_finished_counted ON jobs;
        DROP TRIGGER jobs_finished_uncounted ON jobs;
        DROP TRIGGER jobs_finished_recounted ON jobs;
        DROP FUNCTION jobdeck_count_finished;
        DELETE FROM schema_migrations WHERE name = '030-finished-counts'`);
      const migrated = await openStore(config);
      try {
        expect(migrated.migrated).toEqual(['030-finished-counts']);
        const counts = await migrated.jobs.countByQueue({
          queues: ['p::default'],
          since: now - 86_400_000,
          recentSince: now,
        });
        expect(counts).toEqual([{ queue: 'p::default', state: 'completed', count: 12, recent: 0 }]);
      } finally {
        await migrated.close();
      }
      const { rows } = await raw.query<{ jobs: number; shards: number }>(
        'SELECT sum(jobs)::int AS jobs, count(DISTINCT shard)::int AS shards FROM queue_finished_counts',
      );
      expect(rows).toEqual([{ jobs: 12, shards: 4 }]);
    } finally {
      await raw.end();
    }
  });
});

/**
 * Two connections to the database in different shards of 048 and 049 (`pg_backend_pid() % 64`;
 * pids are the server's to give, so connections are opened until one differs). The second waits
 * at most 2 s for a lock.
 */
async function connectionsInTwoShards(raw: pg.Pool) {
  const opened: pg.PoolClient[] = [];
  const shardOf = async (client: pg.PoolClient) =>
    Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid) %
    64;
  const first = await raw.connect();
  opened.push(first);
  const firstShard = await shardOf(first);
  let second: pg.PoolClient | undefined;
  while (!second) {
    const client = await raw.connect();
    opened.push(client);
    if ((await shardOf(client)) !== firstShard) second = client;
  }
  await second.query(`SET lock_timeout = '2s'`);
  return { first, second, release: () => opened.forEach((client) => client.release()) };
}

describe('shared totals on PostgreSQL, a shard per connection (migrations 048, 049)', () => {
  it('lets two transactions end jobs of one queue in one minute without waiting, and sums exactly', async () => {
    const url = await createDatabase();
    const store = await openStore({
      store: { type: 'postgres', url, pool_size: 2 },
      data_dir: '.',
    });
    for (let i = 0; i < 5; i += 1) await store.jobs.insertJob(newJob(), 'fingerprint');
    const raw = createPool(url, 8);
    const { first, second, release } = await connectionsInTwoShards(raw);
    try {
      const end = `UPDATE jobs SET state = 'completed', finished_at = $1 WHERE seq = $2`;
      const now = Date.now();
      await first.query('BEGIN');
      await first.query(end, [now, 1]);
      // Jobs 1 and 5 shared 030's shard (seq % 4): this waited for the first to commit.
      await second.query('BEGIN');
      await second.query(end, [now, 5]);
      await second.query('COMMIT');
      await first.query('COMMIT');
      // Uncounted from a third connection, wherever it was counted (as a retry's move back).
      await raw.query(`UPDATE jobs SET state = 'runnable', finished_at = NULL WHERE seq = 1`);
      const counts = await store.jobs.countByQueue({
        queues: ['p::default'],
        since: now - 60_000,
        recentSince: now - 60_000,
      });
      expect(counts.filter((count) => count.state === 'completed')).toEqual([
        { queue: 'p::default', state: 'completed', count: 1, recent: 1 },
      ]);
    } finally {
      release();
      await raw.end();
      await store.close();
    }
  });

  it("lets two transactions add to a project's kept output without waiting, and sums exactly", async () => {
    const url = await createMigratedDatabase();
    const raw = createPool(url, 8);
    const { first, second, release } = await connectionsInTwoShards(raw);
    try {
      const add = `INSERT INTO project_output (project, stored_bytes) VALUES ('p', $1)
        ON CONFLICT (project, shard) DO UPDATE SET stored_bytes = project_output.stored_bytes + $1`;
      await first.query('BEGIN');
      await first.query(add, [100]);
      // One row a project before 049: this waited for the first to commit.
      await second.query('BEGIN');
      await second.query(add, [20]);
      await second.query('COMMIT');
      await first.query('COMMIT');
      await raw.query(add, [-30]);
      const { rows } = await raw.query<{ total: string }>(
        `SELECT sum(stored_bytes) AS total FROM project_output WHERE project = 'p'`,
      );
      expect(Number(rows[0]!.total)).toBe(90);
    } finally {
      release();
      await raw.end();
    }
  });
});

describe('API keys on PostgreSQL, kept between requests', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  const newKey = { label: null, role: 'viewer' as const, createdBy: null };

  it('reads a key once a while, never a guess, and drops it on every instance when one revokes it', async () => {
    const url = await createDatabase();
    const config = { store: { type: 'postgres' as const, url, pool_size: 2 }, data_dir: '.' };
    const [here, there] = [await openStore(config), await openStore(config)];
    const reads = vi.spyOn(SqlKeyStore.prototype, 'activeKey');
    try {
      const { id, key } = await here.keys.create('p', { ...newKey, expiresAt: null });
      // The clock stands still: only a revocation's signal can end what `here` keeps.
      vi.useFakeTimers({ toFake: ['Date'] });
      for (let i = 0; i < 5; i++)
        expect(await here.keys.authenticate(key)).toMatchObject({ keyId: id });
      expect(reads).toHaveBeenCalledTimes(1);
      expect(await here.keys.authenticate(`${key}x`)).toBeUndefined();
      expect(await here.keys.authenticate(`${key}x`)).toBeUndefined();
      expect(reads).toHaveBeenCalledTimes(3);

      expect(await there.keys.revoke(id)).toBe(true);
      // Not expect.poll: it moves a fake clock on, and the kept key would end by its age.
      let refused = false;
      for (let tries = 0; tries < 50 && !refused; tries++) {
        refused = (await here.keys.authenticate(key)) === undefined;
        if (!refused) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(refused).toBe(true);
    } finally {
      await Promise.all([here.close(), there.close()]);
    }
  });

  it('reads a kept key again after KEY_CACHE_MS, and refuses an expired one at its expiry', async () => {
    const config = {
      store: { type: 'postgres' as const, url: await createDatabase(), pool_size: 2 },
      data_dir: '.',
    };
    const store = await openStore(config);
    const reads = vi.spyOn(SqlKeyStore.prototype, 'activeKey');
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      const { key } = await store.keys.create('p', { ...newKey, expiresAt: Date.now() + 60_000 });
      expect(await store.keys.authenticate(key)).toBeDefined();
      vi.setSystemTime(Date.now() + KEY_CACHE_MS - 1);
      expect(await store.keys.authenticate(key)).toBeDefined();
      expect(reads).toHaveBeenCalledTimes(1);
      vi.setSystemTime(Date.now() + 1);
      expect(await store.keys.authenticate(key)).toBeDefined();
      expect(reads).toHaveBeenCalledTimes(2);
      vi.setSystemTime(Date.now() + 60_000 - KEY_CACHE_MS);
      expect(await store.keys.authenticate(key)).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('keeps no read that began before a revocation', async () => {
    const store = await openStore({
      store: { type: 'postgres', url: await createDatabase(), pool_size: 2 },
      data_dir: '.',
    });
    try {
      const { id, key } = await store.keys.create('p', { ...newKey, expiresAt: null });
      const readBeforeRevoke = SqlKeyStore.prototype.activeKey;
      let finishRead: (() => void) | undefined;
      // The read answers as the database did before the revocation, but only after it.
      vi.spyOn(SqlKeyStore.prototype, 'activeKey').mockImplementationOnce(async function (
        this: SqlKeyStore,
        keyHash: string,
      ) {
        const active = await readBeforeRevoke.call(this, keyHash);
        await new Promise<void>((resolve) => (finishRead = resolve));
        return active;
      });
      const during = store.keys.authenticate(key);
      await vi.waitUntil(() => finishRead !== undefined);
      await store.keys.revoke(id);
      finishRead!();
      expect(await during).toMatchObject({ keyId: id });
      expect(await store.keys.authenticate(key)).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

describe("fair share's last day on PostgreSQL (migration 047)", () => {
  it("reads the runs that ended since a time through the ends' indexes, not every job and attempt", async () => {
    const url = await createMigratedDatabase();
    const raw = createPool(url, 1);
    const now = Date.now();
    const day = 86_400_000;
    try {
      // 30,000 jobs ended evenly over 30 days, one in ten after a retried attempt, as a store's
      // statistics see them once autovacuum has analyzed the tables.
      await raw.query(
        `${completedJobs(0, 29999, `${now - 30 * day} + i::bigint * 86400`)};
        INSERT INTO job_attempts (job_id, attempt, state, reason, started_at, finished_at, retried)
        SELECT id, 1, 'failed', 'exit', started_at - 2000, started_at - 1000, 1
        FROM jobs WHERE seq % 10 = 0;
        ANALYZE jobs; ANALYZE job_attempts;`,
      );
      const statements = await statementsSent(
        url,
        async (store) => {
          const runs = await store.jobs.runsSince(now - day, { cpus: 1, memoryBytes: 1 });
          // About 1,000 jobs and 100 retried attempts ended in the day.
          expect(runs.length).toBeGreaterThan(900);
        },
        /"started_at" is not null.*"finished_at" >= \$/s,
      );
      expect(statements).toHaveLength(2);
      for (const [text, values] of statements) {
        const { rows } = await raw.query<{ 'QUERY PLAN': unknown }>(
          `EXPLAIN (FORMAT JSON) ${text}`,
          values,
        );
        const plan = JSON.stringify(rows[0]!['QUERY PLAN']);
        expect(plan, text).not.toContain('"Seq Scan"');
      }
    } finally {
      await raw.end();
    }
  });
});

describe("trends' reader on PostgreSQL", () => {
  it('reads the jobs of one page of changes, not of every change up to the horizon', async () => {
    const url = await createMigratedDatabase();
    const raw = createPool(url, 1);
    try {
      // 2,000 jobs, each with a move to running and one to completed: 4,000 changes, half final.
      await raw.query(
        `${completedJobs(1, 2000, 'i::bigint * 1000')};
        INSERT INTO job_transitions (job_id, from_state, to_state, at)
        SELECT 'seeded-' || i, s.from_state, s.to_state, i
        FROM generate_series(1, 2000) AS i,
          (VALUES ('starting', 'running'), ('running', 'completed')) AS s(from_state, to_state);
        ANALYZE jobs; ANALYZE job_transitions;`,
      );
      const statements = await statementsSent(
        url,
        async (store) => {
          const page = await store.trends.changesAfter({ afterSeq: 0, limit: 10 });
          expect(page.map((change) => change.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        },
        /from "job_transitions"/,
      );
      expect(statements).toHaveLength(1);
      const [[text, values]] = statements as [[string, unknown[]]];
      // The plan PostgreSQL chose in the control-plane bench, its statistics under-counting the
      // changes past the cursor (303 estimated, 8,697 there): the range read and sorted, no
      // ordered scan that stops at the page's end.
      await raw.query('SET enable_indexscan = off');
      const { rows } = await raw.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`,
        values,
      );
      // Every row the plan read from jobs, over all its loops: the page's ten changes' jobs at
      // most (it read 2,000 when the join came before the limit).
      const jobRowsRead = (node: PlanNode): number =>
        (node['Relation Name'] === 'jobs' ? node['Actual Rows'] * node['Actual Loops'] : 0) +
        (node.Plans ?? []).reduce((sum, child) => sum + jobRowsRead(child), 0);
      const [{ Plan: plan }] = rows[0]!['QUERY PLAN'] as [{ Plan: PlanNode }];
      expect(jobRowsRead(plan)).toBeLessThanOrEqual(10);
    } finally {
      await raw.end();
    }
  });
});

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** SQL seeding jobs `first`..`last` (as `i`), completed at `endedAt` (SQL of `i`, ms) after 1 s. */
const completedJobs = (first: number, last: number, endedAt: string) =>
  `INSERT INTO jobs (id, project, queue, definition, name, state, created_at, updated_at, image,
    command_json, env_json, timeout_seconds, stop_grace_seconds, network, started_at, finished_at)
  SELECT 'seeded-' || i, 'p', 'p::default', 'p::hello:1', 'hello-' || i, 'completed', e, e,
    'jobdeck/busybox:local', '["true"]', '[]', 3600, 10, 'none', e - 1000, e
  FROM (SELECT i, ${endedAt} AS e FROM generate_series(${first}, ${last}) AS i) AS n`;

/** The statements matching `pattern` that a store sent PostgreSQL while `work` ran on it. */
async function statementsSent(
  url: string,
  work: (store: Store) => Promise<void>,
  pattern: RegExp,
): Promise<[string, unknown[]][]> {
  const query = vi.spyOn(pg.Client.prototype, 'query');
  try {
    const store = await openStore({
      store: { type: 'postgres', url, pool_size: 2 },
      data_dir: '.',
    });
    try {
      await work(store);
    } finally {
      await store.close();
    }
    return query.mock.calls.filter(
      ([text]) => typeof text === 'string' && pattern.test(text),
    ) as unknown as [string, unknown[]][];
  } finally {
    query.mockRestore();
  }
}
