import type { Insertable, Kysely } from 'kysely';
import { SLOT_STATES } from '../../../contract';
import type { Database, JobTransitionsTable, JobsTable } from '../schema';
import { placeholders, prepared, preparedRows, type Param } from './prepared';

export type NewJobRow = Required<
  Omit<
    Insertable<JobsTable>,
    | 'seq'
    | 'container_id'
    | 'exit_code'
    | 'started_at'
    | 'finished_at'
    | 'cancel_requested_at'
    | 'cancel_requested_by'
    | 'owner'
    | 'owner_epoch'
    | 'node'
    | 'host'
    | 'placement_note'
    | 'attempt'
    | 'not_before'
    | 'preempt_requested_at'
    | 'preempt_reason'
    | 'preemptions'
  >
>;
export type NewTransitionRow = Omit<Insertable<JobTransitionsTable>, 'seq'>;

/** Names the columns a job is inserted with, so that the compiled insert binds each of them. */
export const NEW_JOB_COLUMNS = [
  'id',
  'project',
  'queue',
  'definition',
  'name',
  'state',
  'system_note',
  'schedule_at',
  'created_at',
  'updated_at',
  'image',
  'command_json',
  'env_json',
  'timeout_seconds',
  'stop_grace_seconds',
  'cpus',
  'memory_bytes',
  'req_cpus',
  'req_memory_bytes',
  'req_gpus',
  'network',
  'run_options_json',
  'retry_json',
  'depends_json',
  'array_size',
  'array_links_json',
  'array_indexes_json',
  'array_parent',
  'array_index',
  'labels_json',
  'submitted_by',
] as const satisfies readonly (keyof NewJobRow)[];

/**
 * The queries of the hot paths (Job Submit, Job Detail, a runnable job's note, an idle claim),
 * compiled once per store (see prepared.ts).
 */
export function hotQueries(db: Kysely<Database>) {
  const transition = ['job_id', 'from_state', 'to_state', 'at', 'note'] as const;
  return {
    jobById: prepared(db, (db, param: Param<{ id: string }>) =>
      db.selectFrom('jobs').selectAll().where('id', '=', param('id')),
    ),
    // Many rows a statement: a batch of submits costs two inserts, not two per job.
    insertJobs: preparedRows(db, (db, rows: Param<NewJobRow>[]) =>
      // Only the id and sequence number come back: the caller has the rest, and SQLite's
      // RETURNING * cost measurable time a job to hand every column back. By id: neither SQLite nor
      // PostgreSQL promises RETURNING's rows in the order of VALUES.
      db
        .insertInto('jobs')
        .values(rows.map((param) => placeholders(param, NEW_JOB_COLUMNS)))
        .returning(['id', 'seq']),
    ),
    insertTransitions: preparedRows(db, (db, rows: Param<NewTransitionRow>[]) =>
      db.insertInto('job_transitions').values(rows.map((param) => placeholders(param, transition))),
    ),
    rememberFingerprint: prepared(
      db,
      (db, param: Param<{ ref: string; fingerprint: string; first_used_at: number }>) =>
        db
          .insertInto('definition_fingerprints')
          .values(placeholders(param, ['ref', 'fingerprint', 'first_used_at']))
          .onConflict((oc) => oc.column('ref').doNothing()),
    ),
    firstRunnable: prepared(db, (db, param: Param<{ queue: string }>) =>
      db
        .selectFrom('jobs')
        .select('seq')
        .where('state', '=', 'runnable')
        .where('queue', '=', param('queue'))
        // An array's parent runs nothing: it is never claimed and holds no slot.
        .where('array_size', 'is', null)
        .limit(1),
    ),
    slotsHeldByQueue: prepared(db, (db) =>
      db
        .selectFrom('jobs')
        .select((eb) => ['queue', eb.fn.countAll<number>().as('count')])
        .where('state', 'in', SLOT_STATES)
        .where('array_size', 'is', null)
        .groupBy('queue'),
    ),
  };
}
