import { sql, type Kysely } from 'kysely';

/**
 * Labels: the job row keeps them all (as JSON, read with the job), and one row each in
 * job_labels finds the jobs with a label newest first without reading the others: by key and
 * value, or by key alone ("has a label team").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN labels_json text`.execute(db);
  await sql`CREATE TABLE job_labels (
    job_seq bigint NOT NULL,
    project text NOT NULL,
    key text NOT NULL,
    value text NOT NULL,
    PRIMARY KEY (job_seq, key)
  )`.execute(db);
  await sql`CREATE INDEX job_labels_by_value ON job_labels (project, key, value, job_seq)`.execute(
    db,
  );
  await sql`CREATE INDEX job_labels_by_key ON job_labels (project, key, job_seq)`.execute(db);
}
