import { sql, type Kysely } from 'kysely';

/**
 * SQLite's 001 in PostgreSQL's types: times and sequence numbers are 64-bit (`bigint`; a
 * millisecond time overflows `integer`), `seq` is an identity column, `cpus` a double like
 * SQLite's REAL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE jobs (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    project text NOT NULL,
    queue text NOT NULL,
    definition text NOT NULL,
    name text NOT NULL,
    state text NOT NULL,
    system_note text,
    schedule_at bigint,
    created_at bigint NOT NULL,
    updated_at bigint,
    image text NOT NULL,
    command_json text NOT NULL,
    env_json text NOT NULL,
    timeout_seconds integer NOT NULL,
    stop_grace_seconds integer NOT NULL,
    cpus double precision,
    memory_bytes bigint,
    network text NOT NULL,
    container_id text,
    exit_code integer,
    started_at bigint,
    finished_at bigint,
    cancel_requested_at bigint
  )`.execute(db);
  // The dispatcher's questions: what is due, what is next in a queue, what holds a slot.
  await sql`CREATE INDEX jobs_state_queue_seq ON jobs (state, queue, seq)`.execute(db);
  await sql`CREATE INDEX jobs_state_schedule ON jobs (state, schedule_at)`.execute(db);
  await sql`CREATE INDEX jobs_project_seq ON jobs (project, seq)`.execute(db);
  // A name is unique among the unfinished jobs of a queue; the database enforces it, not a race-prone check.
  await sql`CREATE UNIQUE INDEX jobs_active_name ON jobs (queue, name)
    WHERE state NOT IN ('cancelled', 'timeout', 'completed', 'failed', 'error')`.execute(db);

  await sql`CREATE TABLE job_transitions (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id text NOT NULL REFERENCES jobs (id),
    from_state text,
    to_state text NOT NULL,
    at bigint NOT NULL,
    note text
  )`.execute(db);
  await sql`CREATE INDEX job_transitions_job ON job_transitions (job_id, seq)`.execute(db);

  await sql`CREATE TABLE job_logs (
    job_id text PRIMARY KEY REFERENCES jobs (id),
    text text NOT NULL,
    truncated integer NOT NULL
  )`.execute(db);
}
