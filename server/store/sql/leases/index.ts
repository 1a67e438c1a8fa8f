import type { Kysely } from 'kysely';
import type { LeaseFence } from '../../../jobs/lease-fence';
import type { AcquireLeaseParams, LeaseStore } from '../../../jobs/ports';
import type { Database } from '../../schema';
import { acquireLease } from './acquire';
import { readLease } from './read';
import { releaseLease } from './release';

export class SqlLeaseStore implements LeaseStore {
  constructor(private readonly db: Kysely<Database>) {}

  acquire(params: AcquireLeaseParams) {
    return acquireLease(this.db, params);
  }

  release(fence: LeaseFence) {
    return releaseLease(this.db, fence);
  }

  read(name: string) {
    return readLease(this.db, name);
  }
}
