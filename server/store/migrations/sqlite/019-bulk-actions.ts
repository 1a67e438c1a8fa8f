import { sql, type Kysely } from 'kysely';

/**
 * Actions on every job a filter matches, run in batches: the action's progress (how far its
 * cursor went, who holds it) and one result row per job it reached.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE bulk_actions (
    id text PRIMARY KEY,
    project text NOT NULL,
    action text NOT NULL,
    filter_json text NOT NULL,
    state text NOT NULL,
    matched bigint NOT NULL,
    processed bigint NOT NULL DEFAULT 0,
    accepted bigint NOT NULL DEFAULT 0,
    refused bigint NOT NULL DEFAULT 0,
    cursor_seq bigint NOT NULL,
    created_by text NOT NULL,
    created_at bigint NOT NULL,
    finished_at bigint,
    owner text,
    lease_until bigint NOT NULL DEFAULT 0
  )`.execute(db);
  await sql`CREATE INDEX bulk_actions_by_project ON bulk_actions (project, created_at)`.execute(db);
  await sql`CREATE INDEX bulk_actions_running ON bulk_actions (lease_until) WHERE state = 'running'`.execute(
    db,
  );
  await sql`CREATE TABLE bulk_action_results (
    action_id text NOT NULL,
    job_seq bigint NOT NULL,
    job_id text NOT NULL,
    job_name text NOT NULL,
    state_before text NOT NULL,
    result text NOT NULL,
    message text,
    PRIMARY KEY (action_id, job_seq)
  )`.execute(db);
}
