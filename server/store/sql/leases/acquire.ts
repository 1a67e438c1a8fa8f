import { sql, type Kysely } from 'kysely';
import type { AcquireLeaseParams, LeaseRecord } from '../../../jobs/ports';
import type { Database } from '../../schema';
import { readLease } from './read';
import { toLease } from './rows';

/**
 * One compare-and-set, whatever the dialect: renews the holder's lease, or takes a lapsed one
 * (raising the epoch when the holder changes). A lease never taken is inserted; two first takers
 * at once insert one row, and the other finds it held. The common case (a renewal, or a try that
 * finds it held) is one statement, two when refused.
 */
export async function acquireLease(
  db: Kysely<Database>,
  { name, holder, now, ttlMs }: AcquireLeaseParams,
): Promise<LeaseRecord> {
  const taken = await db
    .updateTable('leases')
    .set({
      epoch: sql<number>`CASE WHEN holder = ${holder} THEN epoch ELSE epoch + 1 END`,
      holder,
      expires_at: now + ttlMs,
    })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<=', now)]))
    .returningAll()
    .executeTakeFirst();
  if (taken) return toLease(taken);
  const held = await readLease(db, name);
  if (held) return held;
  const first = await db
    .insertInto('leases')
    .values({ name, holder, epoch: 1, expires_at: now + ttlMs })
    .onConflict((oc) => oc.column('name').doNothing())
    .returningAll()
    .executeTakeFirst();
  return first ? toLease(first) : (await readLease(db, name))!;
}
