import { sql, type Kysely } from 'kysely';

/**
 * A label's jobs in a state, counted from job_labels alone: each row keeps its job's state, and a
 * trigger on `jobs` keeps it in the same transaction as every move, whichever code path made it.
 * The count of a label and a state read each matching job's row to check its state, up to 10,001
 * of them (docs/scaling.md has what that cost). Only a labelled job's moves pay for it
 * (`labels_json` is null on the others), one row per label.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE job_labels ADD COLUMN state text NOT NULL DEFAULT ''`.execute(db);
  await sql`CREATE TRIGGER jobs_label_states AFTER UPDATE OF state ON jobs
    WHEN OLD.state IS NOT NEW.state AND NEW.labels_json IS NOT NULL
    BEGIN UPDATE job_labels SET state = NEW.state WHERE job_seq = NEW.seq; END`.execute(db);
  await backfillAndIndex(db);
}

/** The states of the jobs already labelled, then the indexes the counts read. */
export async function backfillAndIndex(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE job_labels
    SET state = (SELECT jobs.state FROM jobs WHERE jobs.seq = job_labels.job_seq)`.execute(db);
  // By a label's value, or by its key alone ("has a label team"), then the state.
  await sql`CREATE INDEX job_labels_by_value_state
    ON job_labels (project, key, value, state, job_seq)`.execute(db);
  await sql`CREATE INDEX job_labels_by_key_state ON job_labels (project, key, state, job_seq)`.execute(
    db,
  );
}
