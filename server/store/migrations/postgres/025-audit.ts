import { sql, type Kysely } from 'kysely';

/** SQLite's 025 with an identity column for `seq`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE audit_events (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    project text,
    at bigint NOT NULL,
    actor text NOT NULL,
    address text NOT NULL,
    action text NOT NULL,
    target text,
    detail_json text NOT NULL
  )`.execute(db);
  // A project's events newest first, and the same filtered by action, actor or target.
  await sql`CREATE INDEX audit_events_by_project ON audit_events (project, seq)`.execute(db);
  await sql`CREATE INDEX audit_events_by_action ON audit_events (project, action, seq)`.execute(db);
  await sql`CREATE INDEX audit_events_by_actor ON audit_events (project, actor, seq)`.execute(db);
  await sql`CREATE INDEX audit_events_by_target ON audit_events (project, target, seq)`.execute(db);
  // Retention deletes the oldest first.
  await sql`CREATE INDEX audit_events_by_time ON audit_events (at)`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN submitted_by text`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN cancel_requested_by text`.execute(db);
}
