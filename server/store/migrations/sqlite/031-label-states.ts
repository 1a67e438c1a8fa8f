import { sql, type Kysely } from 'kysely';
import type { Backfill } from '../../sql/backfill';

/**
 * A label's jobs in a state, counted from job_labels alone: each row keeps its job's state, and a
 * trigger on `jobs` keeps it in the same transaction as every move, whichever code path made it.
 * The count of a label and a state read each matching job's row to check its state, up to 10,001
 * of them (docs/scaling.md has what that cost). Only a labelled job's moves pay for it
 * (`labels_json` is null on the others), one row per label.
 *
 * The rows already stored get their states after this commits, in batches (`batchedBackfill`), and the
 * indexes over them last: an upgrade of 10⁶ labelled jobs held writes to the jobs for seconds
 * when it was all one transaction. No code reads the column before: the store opens only once
 * the fill is done (sql/migrate.ts), and the trigger keeps every row right meanwhile.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE job_labels ADD COLUMN state text NOT NULL DEFAULT ''`.execute(db);
  await sql`CREATE TRIGGER jobs_label_states AFTER UPDATE OF state ON jobs
    WHEN OLD.state IS NOT NEW.state AND NEW.labels_json IS NOT NULL
    BEGIN UPDATE job_labels SET state = NEW.state WHERE job_seq = NEW.seq; END`.execute(db);
}

/**
 * The states of the labels of jobs in [from, to). A row the trigger already wrote (a move since
 * `up`) is not '' and is left as it is: on PostgreSQL this batch may have read the job before
 * that move committed, and its update of the row re-checks the condition on the moved one.
 */
export async function fillStates(
  db: Kysely<unknown>,
  from: number | null,
  to: number | null,
): Promise<void> {
  await sql`UPDATE job_labels
    SET state = (SELECT jobs.state FROM jobs WHERE jobs.seq = job_labels.job_seq)
    WHERE state = ''
      ${from === null ? sql`` : sql`AND job_seq >= ${from}`}
      ${to === null ? sql`` : sql`AND job_seq < ${to}`}`.execute(db);
}

/** The indexes the counts read: by a label's value, or by its key alone ("has a label team"). */
export const STATE_INDEXES = {
  job_labels_by_value_state: sql.raw('job_labels (project, key, value, state, job_seq)'),
  job_labels_by_key_state: sql.raw('job_labels (project, key, state, job_seq)'),
};

export const batchedBackfill: Backfill = {
  rows: { table: 'job_labels', key: 'job_seq', fill: fillStates },
  // Each holds the write lock while it builds (SQLite builds no index alongside writers).
  finish: Object.entries(STATE_INDEXES).map(([name, columns]) => async (db) => {
    await sql`CREATE INDEX IF NOT EXISTS ${sql.raw(name)} ON ${columns}`.execute(db);
  }),
};
