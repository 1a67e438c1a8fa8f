import { CompiledQuery, type Kysely, type Selectable } from 'kysely';
import type { Database, JobsTable } from '../schema';
import type { MoveRow } from '../sql/jobs/move-row';
import { markCompiledOnce } from '../sql/prepared';

/** Columns a move sets only when it carries them (MoveRow's `set_<column>` says whether). */
const OPTIONAL = [
  ['container_id', 'text'],
  ['exit_code', 'integer'],
  ['started_at', 'bigint'],
  ['finished_at', 'bigint'],
  ['cancel_requested_at', 'bigint'],
  ['cancel_requested_by', 'text'],
  ['node', 'text'],
  ['attempt', 'integer'],
  ['not_before', 'bigint'],
  ['owner', 'text'],
  ['host', 'text'],
  ['memory_bytes', 'bigint'],
  ['req_cpus', 'double precision'],
  ['req_memory_bytes', 'bigint'],
  ['req_gpus', 'integer'],
  ['preempt_requested_at', 'bigint'],
  ['preempt_reason', 'text'],
  ['preemptions', 'integer'],
] as const;

const keepUnlessSet = (column: string) =>
  `${column} = CASE WHEN m.set_${column} THEN m.${column} ELSE j.${column} END`;

/**
 * A batch's compare-and-set moves and their transitions in one statement: the moves travel as
 * one JSON array (the text never changes with the batch's size: one plan), each compared on the
 * job's state and, fenced, on its owner and epoch; the transitions of the rows that moved are
 * inserted in the batch's order (ORDER BY the move's index), so their sequence numbers keep the
 * history's order. A job appears at most once in a call (one UPDATE changes a row once).
 */
const MOVE_SQL = `WITH batch AS (
  SELECT * FROM json_to_recordset($1::json) AS m(
    i integer, id text, from_state text, to_state text, at bigint, note text, moved_by text,
    lease_epoch integer, fence_owner text, fence_epoch integer,
    ${OPTIONAL.map(([column, type]) => `set_${column} boolean, ${column} ${type}`).join(', ')}
  )
), moved AS (
  UPDATE jobs AS j SET
    state = m.to_state, system_note = m.note, updated_at = m.at,
    ${OPTIONAL.map(([column]) => keepUnlessSet(column)).join(',\n    ')},
    owner_epoch = CASE WHEN m.set_owner THEN j.owner_epoch + 1 ELSE j.owner_epoch END,
    placement_note = CASE WHEN m.set_host THEN NULL ELSE j.placement_note END
  FROM batch AS m
  WHERE j.id = m.id AND j.state = m.from_state
    AND (m.fence_owner IS NULL OR (j.owner = m.fence_owner AND j.owner_epoch = m.fence_epoch))
  RETURNING j.*, m.i AS batch_index, m.from_state AS batch_from, m.moved_by AS batch_by,
    m.lease_epoch AS batch_lease_epoch
), transitions AS (
  INSERT INTO job_transitions (job_id, from_state, to_state, at, note, moved_by, lease_epoch)
  SELECT id, batch_from, state, updated_at, system_note, batch_by, batch_lease_epoch
    FROM moved ORDER BY batch_index
)
SELECT * FROM moved`;
markCompiledOnce(MOVE_SQL);

type MovedRow = Selectable<JobsTable> & { batch_index: number };

/** The jobs each move left, by the move's index in `moves` (none where it was refused). */
export async function moveJobsAndTransitions(
  executor: Kysely<Database>,
  moves: readonly MoveRow[],
): Promise<Map<number, Selectable<JobsTable>>> {
  const query = CompiledQuery.raw(MOVE_SQL, [
    JSON.stringify(moves.map((move, i) => ({ ...move, i }))),
  ]);
  const { rows } = await executor.executeQuery<MovedRow>(query);
  // The batch's own columns come back too: toJob reads the job's alone.
  return new Map(rows.map((row) => [row.batch_index, row]));
}
