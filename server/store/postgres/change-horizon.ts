import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../schema';
import type { ChangeReading } from '../sql/dialect';
import { markCompiledOnce } from '../sql/prepared';

/**
 * One statement, so one snapshot S: the newest seq S sees (`last`), the oldest transaction still
 * running in S (`pg_snapshot_xmin`: every transaction numbered below it has ended) and the next
 * transaction number to be assigned, read after S was taken (`xmax + age(xmax)`: `age` counts
 * from the next number, not from S's xmax, which is only one past the newest transaction to
 * have ended).
 *
 * Why a seq up to `last` is final once every transaction below `holders_below` has ended: `last`
 * is visible in S, so it was taken before S; seqs are taken in increasing order (one sequence,
 * no cache), so every seq up to it was taken before S too, by a transaction that had its number
 * before it took the seq (migration 035 makes the seq's default assign it first), so numbered
 * below the next number to be assigned after S.
 */
const HORIZON_SQL = `SELECT (SELECT max(seq) FROM job_transitions) AS last,
  pg_snapshot_xmin(s)::text AS ended_below,
  (pg_snapshot_xmax(s)::text::numeric + age(xid(pg_snapshot_xmax(s))))::text AS holders_below
FROM pg_current_snapshot() AS s`;
// Run many times a second while changes are under way: one named statement, parsed once.
markCompiledOnce(HORIZON_SQL);

export async function readChangeHorizon(db: Kysely<Database>): Promise<ChangeReading> {
  const { rows } = await db.executeQuery<{
    last: number | null;
    ended_below: string;
    holders_below: string;
  }>(CompiledQuery.raw(HORIZON_SQL));
  const row = rows[0]!;
  return {
    last: Number(row.last ?? 0),
    holdersBelow: BigInt(row.holders_below),
    endedBelow: BigInt(row.ended_below),
  };
}
