import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { v7 as timeOrderedUuid } from 'uuid';
import type { JobdeckConfig } from '../../server/config/schema';
import { openStore } from '../../server/store/open-store';

/**
 * Fills a fresh store with `count` finished jobs, one transition and a small kept output each,
 * straight through SQL: a million submits over HTTP would take longer than the figure is worth.
 * The jobs are the same in both stores: ten teams (a label), one job in RARE_EVERY with a ticket
 * too, names spread evenly for the prefix filters (1 in 16, 1 in 4,096), one job every 10 ms.
 */

/** Jobs whose output the figure keeps: seeded last, without one. */
export const KEPT_OUTPUTS = 200;
/** One job in this many has the rare label. */
const RARE_EVERY = 10_000;

export type StoreSettings = JobdeckConfig['store'];

export interface SeededStore {
  store: StoreSettings;
  /** A job from the middle, for Job Detail. */
  sampleId: string;
  /** The last KEPT_OUTPUTS jobs, seeded without an output. */
  withoutOutput: string[];
  /** When the middle job was created, for a time range in the middle. */
  middle: number;
}

/** The schema through the real migrations. */
async function migrate(store: StoreSettings, dataDir: string) {
  await (await openStore({ store, data_dir: dataDir })).close();
}

export async function seedSqlite(dataDir: string, count: number): Promise<SeededStore> {
  const store = { type: 'sqlite', path: 'jobdeck.sqlite' } as const;
  await migrate(store, dataDir);
  const db = new SqliteDatabase(join(dataDir, store.path));
  db.pragma('journal_mode = WAL');
  const job =
    db.prepare(`INSERT INTO jobs (id, project, queue, definition, name, state, system_note,
    schedule_at, created_at, updated_at, image, command_json, env_json, timeout_seconds,
    stop_grace_seconds, network, exit_code, started_at, finished_at, labels_json)
    VALUES (?, 'b', 'b::eight', 'b::true:1', ?, 'completed', NULL, NULL, ?, ?,
    'jobdeck/busybox:local', '["true"]', '[]', 3600, 10, 'none', 0, ?, ?, ?)
    RETURNING seq`);
  const label = db.prepare(
    `INSERT INTO job_labels (job_seq, project, key, value, state) VALUES (?, 'b', ?, ?, 'completed')`,
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
      const team = `t${i % 10}`;
      const rare = i % RARE_EVERY === 0;
      const labels = rare ? { team, ticket: 'OPS-1' } : { team };
      const name = `true-${randomUUID().slice(0, 8)}`;
      const { seq } = job.get(id, name, at, at + 5, at + 1, at + 5, JSON.stringify(labels)) as {
        seq: number;
      };
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
  return { store, sampleId, withoutOutput, middle: start + Math.floor(count / 2) * 10 };
}

/**
 * The same jobs in PostgreSQL, each table filled by one INSERT … SELECT over generate_series
 * (a row at a time from here would be a round trip each). Ids are time-ordered as UUIDv7's are:
 * the creation time's milliseconds first.
 */
export async function seedPostgres(
  url: string,
  dataDir: string,
  count: number,
): Promise<SeededStore> {
  // The service's default pool.
  const store = { type: 'postgres', url, pool_size: 10 } as const;
  await migrate(store, dataDir);
  const client = new pg.Client(url);
  await client.connect();
  try {
    const start = Date.now() - count * 10;
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO jobs (id, project, queue, definition, name, state, created_at, updated_at,
        image, command_json, env_json, timeout_seconds, stop_grace_seconds, network, exit_code,
        started_at, finished_at, labels_json)
      SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(r, 1, 3) || '-8'
          || substr(r, 4, 3) || '-' || substr(r, 7, 12),
        'b', 'b::eight', 'b::true:1', 'true-' || substr(r, 20, 8), 'completed', at, at + 5,
        'jobdeck/busybox:local', '["true"]', '[]', 3600, 10, 'none', 0, at + 1, at + 5,
        '{"team":"t' || (i % 10) || '"' || CASE WHEN i % $3 = 0 THEN ',"ticket":"OPS-1"' ELSE '' END || '}'
      FROM (SELECT i, $1::bigint + i * 10 AS at, lpad(to_hex($1::bigint + i * 10), 12, '0') AS h,
          md5(i::text) AS r
        FROM generate_series(0, $2::bigint - 1) AS i) AS made
      ORDER BY i`,
      [start, count, RARE_EVERY],
    );
    await client.query(
      `INSERT INTO job_labels (job_seq, project, key, value, state)
      SELECT seq, 'b', 'team', labels_json::json->>'team', state FROM jobs
      UNION ALL
      SELECT seq, 'b', 'ticket', 'OPS-1', state FROM jobs WHERE labels_json LIKE '%"ticket"%'`,
    );
    await client.query(
      `INSERT INTO job_transitions (job_id, from_state, to_state, at)
      SELECT id, 'running', 'completed', created_at + 5 FROM jobs ORDER BY seq`,
    );
    await client.query(
      `INSERT INTO job_logs (job_id, text, truncated, project, stored_bytes, saved_at)
      SELECT id, '', 0, 'b', 100, created_at + 5 FROM jobs ORDER BY seq LIMIT $1`,
      [count - KEPT_OUTPUTS],
    );
    await client.query(
      `INSERT INTO project_output (project, stored_bytes) VALUES ('b', $1)
      ON CONFLICT (project) DO UPDATE SET stored_bytes = excluded.stored_bytes`,
      [(count - KEPT_OUTPUTS) * 100],
    );
    await client.query(
      `INSERT INTO trend_cursor (id, seq) SELECT 1, max(seq) FROM job_transitions
      ON CONFLICT (id) DO UPDATE SET seq = excluded.seq`,
    );
    await client.query('COMMIT');
    // As autovacuum leaves a store that has run along: statistics for the planner, and the
    // visibility map that lets an index answer alone.
    await client.query('VACUUM ANALYZE');
    const ids = async (sql: string, values: unknown[]) =>
      (await client.query<{ id: string }>(sql, values)).rows.map((row) => row.id);
    const [sampleId] = await ids('SELECT id FROM jobs ORDER BY seq OFFSET $1 LIMIT 1', [
      Math.floor(count / 2),
    ]);
    const withoutOutput = await ids('SELECT id FROM jobs ORDER BY seq DESC LIMIT $1', [
      KEPT_OUTPUTS,
    ]);
    return {
      store,
      sampleId: sampleId!,
      withoutOutput: withoutOutput.reverse(),
      middle: start + Math.floor(count / 2) * 10,
    };
  } finally {
    await client.end();
  }
}
