import { sql, type Kysely } from 'kysely';

/**
 * Trends: jobs ended per queue, period (an hour, or a UTC day) and outcome, and their waiting and
 * run times as histograms (a row per non-empty bucket), added to by a roller that reads the change
 * feed after its cursor. Hours serve the 24-hour view, days the 30-day one: each read sums a
 * bounded number of rows whatever the number of jobs. Nothing here refers to jobs: retention
 * deletes those, the rollups keep their own time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE trend_outcomes (
    queue text NOT NULL,
    period text NOT NULL,
    start bigint NOT NULL,
    outcome text NOT NULL,
    jobs bigint NOT NULL,
    PRIMARY KEY (queue, period, start, outcome)
  )`.execute(db);
  await sql`CREATE INDEX trend_outcomes_age ON trend_outcomes (period, start)`.execute(db);
  await sql`CREATE TABLE trend_durations (
    queue text NOT NULL,
    period text NOT NULL,
    start bigint NOT NULL,
    measure text NOT NULL,
    bucket integer NOT NULL,
    jobs bigint NOT NULL,
    PRIMARY KEY (queue, period, start, measure, bucket)
  )`.execute(db);
  await sql`CREATE INDEX trend_durations_age ON trend_durations (period, start)`.execute(db);
  await sql`CREATE TABLE trend_cursor (
    id integer PRIMARY KEY CHECK (id = 1),
    seq bigint NOT NULL
  )`.execute(db);
}
