import { sql, type Kysely } from 'kysely';

/** Every Jobdeck process on the store, with its heartbeat: a survivor takes over a lost one's jobs. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE instances (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL,
    stopped_at INTEGER
  )`.execute(db);
  // The reconciler's question each pass: whose unfinished jobs are these?
  await sql`CREATE INDEX jobs_owner_state ON jobs (owner, state)`.execute(db);
}
