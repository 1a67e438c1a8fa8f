import { sql, type Kysely } from 'kysely';

/**
 * Webhooks: a project's URLs told of state changes, how far the changes were read for them (one
 * cursor for every instance), and each event's delivery with its latest attempt.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE webhooks (
    id text PRIMARY KEY,
    project text NOT NULL,
    url text NOT NULL,
    description text NOT NULL,
    states_json text NOT NULL,
    queues_json text NOT NULL,
    labels_json text NOT NULL,
    secret_sealed text NOT NULL,
    from_seq bigint NOT NULL,
    created_by text NOT NULL,
    created_at bigint NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX webhooks_by_project ON webhooks (project, created_at)`.execute(db);
  await sql`CREATE TABLE webhook_cursor (
    id integer PRIMARY KEY CHECK (id = 1),
    seq bigint NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE webhook_deliveries (
    id text PRIMARY KEY,
    webhook_id text NOT NULL,
    event_type text NOT NULL,
    job_id text,
    payload text NOT NULL,
    state text NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at bigint NOT NULL,
    lease_until bigint NOT NULL DEFAULT 0,
    last_status integer,
    last_latency_ms integer,
    last_error text,
    created_at bigint NOT NULL,
    finished_at bigint
  )`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'`.execute(
    db,
  );
  await sql`CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, id)`.execute(
    db,
  );
  await sql`CREATE INDEX webhook_deliveries_ended ON webhook_deliveries (finished_at) WHERE state <> 'pending'`.execute(
    db,
  );
}
