import type { LeaseFence } from '../lease-fence';

/** A lease as the store holds it: one row per name, whoever holds it now. */
export interface LeaseRecord {
  name: string;
  holder: string;
  /** Raised at every change of holder: what the holder's decisions are fenced by. */
  epoch: number;
  /** When it lapses unless renewed (the taker's clock, ms since the epoch). */
  expiresAt: number;
}

export interface AcquireLeaseParams {
  name: string;
  holder: string;
  now: number;
  ttlMs: number;
}

/** Leases taken and renewed by compare-and-set, however many instances try at once. */
export interface LeaseStore {
  /**
   * Renews the lease when `holder` holds it, or takes it when nobody does or its holder let it
   * lapse by `now` (the epoch raised): it then lapses at `now + ttlMs`. Returns the lease as it
   * stands after the call: `holder`'s, or another's that holds it.
   */
  acquire(params: AcquireLeaseParams): Promise<LeaseRecord>;
  /** Lets the lapse come now, if `fence` still holds it: the next taker need not wait it out. */
  release(fence: LeaseFence): Promise<void>;
  /** The lease as stored, lapsed or not; undefined while nobody ever took it. */
  read(name: string): Promise<LeaseRecord | undefined>;
}
