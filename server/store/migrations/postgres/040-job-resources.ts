import { sql, type Kysely } from 'kysely';

/**
 * What a job asks for to be placed (null in jobs stored before: they count as their limits), the
 * host Jobdeck placed it on, and why a runnable one fits no host now. Claims sum what the jobs
 * holding a slot hold per host: the partial index keeps that read to those jobs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN req_cpus double precision`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN req_memory_bytes bigint`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN req_gpus integer`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN host text`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN placement_note text`.execute(db);
  await sql`CREATE INDEX jobs_placed ON jobs (host)
    WHERE host IS NOT NULL AND state IN ('starting', 'running', 'cancelling')`.execute(db);
}
