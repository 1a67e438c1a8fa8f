import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../schema';
import type { NewJobRow, NewTransitionRow } from '../sql/hot-queries';
import { NEW_JOB_COLUMNS } from '../sql/hot-queries';
import { markCompiledOnce } from '../sql/prepared';

const TRANSITION_COLUMNS = ['job_id', 'from_state', 'to_state', 'at', 'note'] as const;

const columns = (names: readonly string[], from?: string) =>
  names.map((name) => (from ? `${from}."${name}"` : `"${name}"`)).join(', ');

/**
 * A batch's jobs and their transitions in one statement: each table's rows travel as one JSON
 * array typed by the table's own row type, so the text never changes with the batch's size (one
 * plan, and a named statement can keep it). One statement is atomic by itself, so a batch needs
 * no BEGIN and COMMIT of its own: one round trip where there were four. The transitions' foreign
 * key is checked at the statement's end, when the jobs are there. Rows are inserted in the
 * arrays' order (ORDER BY ordinality), so their sequence numbers keep the history's order.
 */
const ADMIT_SQL = `WITH new_jobs AS (
  INSERT INTO jobs (${columns(NEW_JOB_COLUMNS)})
  SELECT ${columns(NEW_JOB_COLUMNS, 'r')}
  FROM json_populate_recordset(NULL::jobs, $1::json) WITH ORDINALITY AS r
  ORDER BY r.ordinality
  RETURNING id, seq
), new_transitions AS (
  INSERT INTO job_transitions (${columns(TRANSITION_COLUMNS)})
  SELECT ${columns(TRANSITION_COLUMNS, 't')}
  FROM json_populate_recordset(NULL::job_transitions, $2::json) WITH ORDINALITY AS t
  ORDER BY t.ordinality
)
SELECT id, seq FROM new_jobs`;
markCompiledOnce(ADMIT_SQL);

export async function insertJobsAndTransitions(
  executor: Kysely<Database>,
  jobs: readonly NewJobRow[],
  transitions: readonly NewTransitionRow[],
): Promise<{ id: string; seq: number }[]> {
  const query = CompiledQuery.raw(ADMIT_SQL, [JSON.stringify(jobs), JSON.stringify(transitions)]);
  const { rows } = await executor.executeQuery<{ id: string; seq: number }>(query);
  return rows;
}
