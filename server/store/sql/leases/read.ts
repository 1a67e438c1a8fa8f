import type { Kysely } from 'kysely';
import type { LeaseRecord } from '../../../jobs/ports';
import type { Database } from '../../schema';
import { toLease } from './rows';

/** The lease as stored, lapsed or not. */
export async function readLease(
  db: Kysely<Database>,
  name: string,
): Promise<LeaseRecord | undefined> {
  const row = await db.selectFrom('leases').selectAll().where('name', '=', name).executeTakeFirst();
  return row && toLease(row);
}
