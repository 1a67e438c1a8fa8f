import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { FINAL_STATES } from '../../../../contract';

/**
 * A job not yet in a final state, the states written out as literals: a partial index of
 * unfinished jobs (jobs_active_name, jobs_unfinished_arrays) serves only a query whose condition
 * the planner can see implies the index's own, and a bound parameter hides that. With the states
 * bound, SQLite read a store of 10⁶ jobs whole: 200–530 ms a query, against 0.1 ms.
 */
export const notFinal: RawBuilder<SqlBool> = sql<SqlBool>`${sql.ref('state')} NOT IN (${sql.join(
  FINAL_STATES.map((state) => sql.lit(state)),
)})`;
