import { sql, type Kysely } from 'kysely';

/**
 * Trends: jobs ended per queue, hour and outcome, and their waiting and run times as histograms
 * (a row per non-empty bucket), added to by a roller that reads the change feed after its cursor.
 * Nothing here refers to jobs: retention deletes those, the rollups stay their own 31 days.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE trend_outcomes (
    queue text NOT NULL,
    hour bigint NOT NULL,
    outcome text NOT NULL,
    jobs bigint NOT NULL,
    PRIMARY KEY (queue, hour, outcome)
  )`.execute(db);
  await sql`CREATE INDEX trend_outcomes_hour ON trend_outcomes (hour)`.execute(db);
  await sql`CREATE TABLE trend_durations (
    queue text NOT NULL,
    hour bigint NOT NULL,
    measure text NOT NULL,
    bucket integer NOT NULL,
    jobs bigint NOT NULL,
    PRIMARY KEY (queue, hour, measure, bucket)
  )`.execute(db);
  await sql`CREATE INDEX trend_durations_hour ON trend_durations (hour)`.execute(db);
  await sql`CREATE TABLE trend_cursor (
    id integer PRIMARY KEY CHECK (id = 1),
    seq bigint NOT NULL
  )`.execute(db);
}
