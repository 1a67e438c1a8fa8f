import type { Kysely } from 'kysely';
import type { JobState } from '../../../../contract';
import type { QueueStateCount } from '../../../jobs/model';
import type { Database } from '../../schema';

/** A minute: the buckets migration 030's triggers count `finished_at` into. */
const BUCKET_MS = 60_000;
const bucketFrom = (at: number) => Math.ceil(at / BUCKET_MS) * BUCKET_MS;

/**
 * The final jobs of the queues that finished at or after `since`, by state, with how many of
 * them at or after `recentSince`: exact, as counting the index would be, but the whole buckets
 * come from the triggers' counts and only the partial bucket at each window's start from the
 * (queue, finished_at, state) index. So a read costs a day's buckets plus at most a minute
 * of jobs per window, however many finished in the day.
 */
export async function countFinished(
  db: Kysely<Database>,
  queues: readonly string[],
  since: number,
  recentSince: number,
): Promise<QueueStateCount[]> {
  const [wholeFrom, wholeRecentFrom] = [bucketFrom(since), bucketFrom(recentSince)];
  const edge = (from: number, to: number) =>
    db
      .selectFrom('jobs')
      .select((eb) => ['queue', 'state', eb.fn.countAll<number>().as('jobs')])
      .where('queue', 'in', queues)
      .where('finished_at', '>=', from)
      .where('finished_at', '<', to)
      .groupBy(['queue', 'state'])
      .execute();
  const [buckets, dayEdge, recentEdge] = await Promise.all([
    db
      .selectFrom('queue_finished_counts')
      .select((eb) => [
        'queue',
        'state',
        eb.fn.sum<number>('jobs').as('jobs'),
        eb.fn
          .sum<number>(
            eb.case().when('bucket', '>=', wholeRecentFrom).then(eb.ref('jobs')).else(0).end(),
          )
          .as('recent'),
      ])
      .where('queue', 'in', queues)
      .where('bucket', '>=', wholeFrom)
      .groupBy(['queue', 'state'])
      .execute(),
    edge(since, wholeFrom),
    edge(recentSince, wholeRecentFrom),
  ]);
  const counts = new Map<string, QueueStateCount>();
  const add = (row: { queue: string; state: string }, count: number, recent: number) => {
    const key = `${row.queue}\n${row.state}`;
    const found = counts.get(key) ?? {
      queue: row.queue,
      state: row.state as JobState,
      count: 0,
      recent: 0,
    };
    found.count += count;
    found.recent += recent;
    counts.set(key, found);
  };
  for (const row of buckets) add(row, Number(row.jobs), Number(row.recent));
  for (const row of dayEdge) add(row, Number(row.jobs), 0);
  for (const row of recentEdge) add(row, 0, Number(row.jobs));
  return [...counts.values()];
}

/**
 * The instances of a store each count from their own clock: an hour past `before` is kept, so
 * one whose clock is behind the one that prunes still finds every minute its window reads.
 */
const KEPT_FOR_CLOCKS_MS = 3_600_000;

/** Forgets the counts of the minutes before `before` (a window never reads them again). */
export async function pruneFinishedCounts(db: Kysely<Database>, before: number): Promise<void> {
  await db
    .deleteFrom('queue_finished_counts')
    .where('bucket', '<', before - KEPT_FOR_CLOCKS_MS)
    .execute();
}
