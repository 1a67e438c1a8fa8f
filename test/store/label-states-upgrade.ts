/**
 * A store as release 0.2 before migration 031 left it, filled with labelled jobs, and the two
 * ways 031 can reach it: as it shipped (one transaction) and as it runs now (a batched backfill).
 * Shared by the contract suite and the by-hand figure (bench/online-migration.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openStore } from '../../server/store/open-store';
import { bundledScript } from '../support/bundled-script';
import { execBeside, queryBeside, type StoreConfig } from './beside';

type Driver = StoreConfig['store']['type'];

/** 031 undone: the store as written before it (SQLite drops no column an index holds). */
export async function undo031(config: StoreConfig): Promise<void> {
  const trigger =
    config.store.type === 'postgres'
      ? 'DROP TRIGGER jobs_label_states ON jobs; DROP FUNCTION jobdeck_label_states;'
      : 'DROP TRIGGER jobs_label_states;';
  await execBeside(
    config,
    `DROP INDEX job_labels_by_value_state; DROP INDEX job_labels_by_key_state; ${trigger}
    ALTER TABLE job_labels DROP COLUMN state;
    DELETE FROM schema_migrations WHERE name = '031-label-states';
    DELETE FROM schema_backfills WHERE name = '031-label-states';`,
  );
}

/** 031 as it shipped (git show db702e1:server/store/migrations/…/031-label-states.ts), verbatim. */
const SHIPPED_031: Record<Driver, string> = {
  sqlite: `ALTER TABLE job_labels ADD COLUMN state text NOT NULL DEFAULT '';
  CREATE TRIGGER jobs_label_states AFTER UPDATE OF state ON jobs
    WHEN OLD.state IS NOT NEW.state AND NEW.labels_json IS NOT NULL
    BEGIN UPDATE job_labels SET state = NEW.state WHERE job_seq = NEW.seq; END;`,
  postgres: `ALTER TABLE job_labels ADD COLUMN state text NOT NULL DEFAULT '';
  CREATE FUNCTION jobdeck_label_states() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE job_labels SET state = NEW.state WHERE job_seq = NEW.seq;
      RETURN NULL;
    END $$;
  CREATE TRIGGER jobs_label_states AFTER UPDATE OF state ON jobs FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state AND NEW.labels_json IS NOT NULL)
    EXECUTE FUNCTION jobdeck_label_states();`,
};
const SHIPPED_031_FILL = `UPDATE job_labels
    SET state = (SELECT jobs.state FROM jobs WHERE jobs.seq = job_labels.job_seq);
  CREATE INDEX job_labels_by_value_state
    ON job_labels (project, key, value, state, job_seq);
  CREATE INDEX job_labels_by_key_state ON job_labels (project, key, state, job_seq);`;

/** 031 the old way: schema, fill and indexes in one transaction, as the migration runner ran it. */
export async function applyShipped031(config: StoreConfig): Promise<void> {
  await execBeside(
    config,
    `BEGIN${config.store.type === 'sqlite' ? ' IMMEDIATE' : ''};
    ${SHIPPED_031[config.store.type]} ${SHIPPED_031_FILL}
    INSERT INTO schema_migrations (name, applied_at) VALUES ('031-label-states', 0);
    COMMIT;`,
  );
}

/** 031 the new way: the store opened (and closed) as a new release's start opens it. */
export async function applyBatched031(config: StoreConfig): Promise<string[]> {
  const store = await openStore(config);
  await store.close();
  return store.migrated;
}

/** The state of seeded job i: a quarter of them runnable (seeded-0, seeded-4, …). */
const STATE_OF_I = `CASE i % 4 WHEN 0 THEN 'runnable' WHEN 1 THEN 'running'
  WHEN 2 THEN 'completed' ELSE 'failed' END`;

/**
 * `count` jobs (`seeded-<i>`), four in five labelled (`team`, and every third also `tier`: two
 * rows of job_labels for one job), in one statement per table: a row at a time would take
 * longer than the figure. Deterministic: two stores seeded alike hold the same rows.
 */
export async function seedLabelledJobs(config: StoreConfig, count: number): Promise<void> {
  const numbers =
    config.store.type === 'postgres'
      ? `n(i) AS (SELECT generate_series(0, ${count - 1}))`
      : `RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1})`;
  await execBeside(
    config,
    `WITH ${numbers}
    INSERT INTO jobs (id, project, queue, definition, name, state, created_at, updated_at, image,
      command_json, env_json, timeout_seconds, stop_grace_seconds, network, labels_json)
    SELECT 'seeded-' || i, 'b', 'b::eight', 'b::true:1', 'true-' || i, ${STATE_OF_I},
      1764000000000 + i, 1764000000000 + i, 'jobdeck/busybox:local', '["true"]', '[]', 3600, 10,
      'none', CASE WHEN i % 5 = 4 THEN NULL ELSE '{"team":"t' || (i % 10) || '"}' END
    FROM n;
    INSERT INTO job_labels (job_seq, project, key, value)
    SELECT seq, 'b', 'team', 't' || (seq % 10) FROM jobs WHERE labels_json IS NOT NULL
    UNION ALL
    SELECT seq, 'b', 'tier', 'gold' FROM jobs WHERE labels_json IS NOT NULL AND seq % 3 = 0;`,
  );
}

/** Label rows whose state is not their job's (0 when the fill and the trigger are right). */
export async function wrongLabelStates(config: StoreConfig): Promise<number> {
  const [row] = await queryBeside<{ wrong: number | string }>(
    config,
    `SELECT count(*) AS wrong FROM job_labels l JOIN jobs j ON j.seq = l.job_seq
     WHERE l.state <> j.state`,
  );
  return Number(row!.wrong);
}

export interface WriterReport {
  /** Writes begun while the migration ran, and the longest any of them took (ms). */
  writesDuring: number;
  longestMs: number;
  /** Seeded runnable jobs it cancelled (each a move the trigger carries to its labels). */
  cancelled: number;
}

const WRITER = resolve(import.meta.dirname, 'old-release-writer.ts');

/**
 * Starts a writer of the release before (old-release-writer.ts, a process of its own) on the
 * store; resolves once it writes. `during(migrate)` then marks the migration's time and returns
 * what the writer measured in it.
 */
export async function startWriter(config: StoreConfig, dir: string, seeded: number) {
  const [ready, migrating, stop] = ['ready', 'migrating', 'stop'].map((f) => join(dir, f));
  const writer = await bundledScript(WRITER);
  const exited = new Promise<string>((resolveExit, reject) => {
    execFile(
      process.execPath,
      [writer, JSON.stringify(config), dir, String(seeded)],
      { timeout: 30 * 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`writer failed: ${stderr}`)) : resolveExit(stdout),
    );
  });
  exited.catch(() => {});
  while (!existsSync(ready!)) await new Promise((r) => setTimeout(r, 20));
  return {
    async during<T>(migrate: () => Promise<T>): Promise<{ result: T; writer: WriterReport }> {
      writeFileSync(migrating!, '');
      let result: T;
      try {
        result = await migrate();
      } finally {
        writeFileSync(stop!, '');
      }
      return { result, writer: JSON.parse(await exited) as WriterReport };
    },
  };
}
