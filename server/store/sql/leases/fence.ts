import type { Kysely } from 'kysely';
import { LeaseLostError } from '../../../jobs/lease-fence';
import type { LeaseFence } from '../../../jobs/lease-fence';
import type { Database } from '../../schema';

/**
 * Inside a claim's transaction, after the claims' lock: throws LeaseLostError unless the lease is
 * still the fence's holder's under its epoch. A holder frozen past its lease and thawed claims
 * nothing then, whatever its own clock says. The row read stays held until the claim's commit
 * (`locksRowsRead`): a takeover cannot commit between this check and the claim's moves.
 */
export async function assertLeaseHeld(
  trx: Kysely<Database>,
  fence: LeaseFence,
  locksRowsRead: boolean,
): Promise<void> {
  const held = await trx
    .selectFrom('leases')
    .select('epoch')
    .where('name', '=', fence.name)
    .where('holder', '=', fence.holder)
    .where('epoch', '=', fence.epoch)
    .$if(locksRowsRead, (query) => query.forShare())
    .executeTakeFirst();
  if (!held) throw new LeaseLostError(fence.name);
}
