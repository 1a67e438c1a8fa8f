import type { Generated } from 'kysely';

/** The tables of what is counted over time: trends, incident windows, fair share's past use. */

/** Fair share's past use: amount × seconds held by a queue's ended attempts, per bucket. */
export interface ShareUseTable {
  queue: string;
  bucket_start: number;
  cpu_seconds: number;
  memory_byte_seconds: number;
  gpu_seconds: number;
  job_seconds: number;
}

/** Jobs of a queue that ended within one period ('hour' or 'day', from `start`), by outcome. */
export interface TrendOutcomesTable {
  queue: string;
  period: string;
  start: number;
  outcome: string;
  jobs: number;
}

/** Of those jobs, how many waited or ran for a time within one histogram bucket. */
export interface TrendDurationsTable {
  queue: string;
  period: string;
  start: number;
  measure: string;
  bucket: number;
  jobs: number;
}

/** The one row of the trends roller: every change up to seq is counted. */
export interface TrendCursorTable {
  id: number;
  seq: number;
}

/** A window when the engine was unreachable (queue null) or a queue paused; open while ended_at is null. */
export interface IncidentsTable {
  id: Generated<number>;
  kind: string;
  queue: string | null;
  started_at: number;
  ended_at: number | null;
  note: string | null;
}
