import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { JOB_STATES } from '../../../../contract';
import type { ListOrder, SortPosition } from '../../../jobs/list-filter';
import type { Database } from '../../schema';

/**
 * A sort field as SQL, the same value as the domain's sortKeyOf (jobs/list-order.ts). Times and
 * the duration are the columns migration 033 indexes with the project and seq.
 */
function sortKey(field: ListOrder['field']): RawBuilder<number | null> {
  switch (field) {
    case 'state':
      return sql`(CASE jobs.state ${sql.join(
        JOB_STATES.map((state, rank) => sql`WHEN ${sql.lit(state)} THEN ${sql.lit(rank)}`),
        sql` `,
      )} END)`;
    case 'created_at':
      return sql`jobs.created_at`;
    case 'started_at':
      return sql`jobs.started_at`;
    case 'ended_at':
      return sql`jobs.finished_at`;
    case 'duration':
      return sql`(jobs.finished_at - jobs.started_at)`;
  }
}

/**
 * The jobs that have a value. Created always has one, and SQLite drops an `IS NOT NULL` on a
 * column declared NOT NULL before it matches partial indexes, so that 029's index would not
 * serve: a bound any creation time passes keeps it (800 ms → 1 ms a page at 100,000 jobs).
 */
function hasKey(field: ListOrder['field'], key: RawBuilder<number | null>): RawBuilder<boolean> {
  return field === 'created_at' ? sql`jobs.created_at >= 0` : sql`${key} IS NOT NULL`;
}

type Matching = SelectQueryBuilder<Database, 'jobs', object>;

/**
 * A page of the matching jobs in `order`, after `after` (keyset: the last job's key and seq, so
 * that jobs inserted or moved elsewhere in the order never shift a page). Jobs with no value come
 * last in either direction, by seq: two index-ordered reads, the keyed ones and then, when the
 * page is not full, the ones without a key, rather than a sentinel no index holds.
 */
export async function sortedPage(
  matching: Matching,
  order: ListOrder,
  after: SortPosition | undefined,
  limit: number,
) {
  const key = sortKey(order.field);
  const direction = order.descending ? 'desc' : 'asc';
  const past = order.descending ? sql.raw('<') : sql.raw('>');
  const rows = [];
  if (after?.key !== null) {
    let keyed = matching
      .selectAll('jobs')
      .where(hasKey(order.field, key))
      .orderBy(key, direction)
      .orderBy('jobs.seq', direction)
      .limit(limit);
    if (after)
      keyed = keyed.where(sql<boolean>`(${key}, jobs.seq) ${past} (${after.key}, ${after.seq})`);
    rows.push(...(await keyed.execute()));
  }
  if (rows.length < limit) {
    let unkeyed = matching
      .selectAll('jobs')
      .where(key, 'is', null)
      .orderBy('jobs.seq', direction)
      .limit(limit - rows.length);
    if (after?.key === null) unkeyed = unkeyed.where(sql<boolean>`jobs.seq ${past} ${after.seq}`);
    rows.push(...(await unkeyed.execute()));
  }
  return rows;
}
