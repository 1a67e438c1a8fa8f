import type { Kysely } from 'kysely';
import type { LeaseFence } from '../../../jobs/lease-fence';
import type { Database } from '../../schema';

/** Lapses the lease now, unless another holder (or a later epoch) has it already. */
export async function releaseLease(db: Kysely<Database>, fence: LeaseFence): Promise<void> {
  await db
    .updateTable('leases')
    .set({ expires_at: 0 })
    .where('name', '=', fence.name)
    .where('holder', '=', fence.holder)
    .where('epoch', '=', fence.epoch)
    .execute();
}
