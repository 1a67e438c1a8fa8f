import type { LeaseFence } from './lease-fence';
import type { LeaseStore, Logger } from './ports';

/** What a DispatchLease works with. */
export interface DispatchLeaseParts {
  leases: LeaseStore;
  /** This instance. */
  holder: string;
  logger: Logger;
  /** Told when this instance starts or stops being the dispatcher. */
  onChange: (held: boolean) => void;
}

const LEASE_NAME = 'dispatcher';
/**
 * Renewed three times a TTL, so two renewals may fail (a slow store, a starved event loop)
 * before the holder lets go. The others try again when the lease they saw lapses: a dead
 * holder's successor takes it within TTL_MS of its last renewal, each of them trying about once
 * a TTL meanwhile, not at every renewal.
 */
const TTL_MS = 1_000;
const RENEW_MS = 300;
/** After the lapse seen: the holder's clock and this one's may differ a little. */
const AFTER_LAPSE_MS = 20;
const SOONEST_TRY_MS = 50;

/**
 * The `dispatcher` lease: one instance at a time claims jobs for all (Dispatcher). Every instance
 * tries on a timer: the holder renews, the others take it once it lapses. The holder counts its
 * lease from the moment it asked for it, on its own clock: once that span has passed without a
 * renewal answered (a frozen process, an unreachable store), `fence` is undefined at once and it
 * dispatches nothing; a claim under an epoch it lost is refused by the store anyway.
 */
export class DispatchLease {
  private held: { epoch: number; until: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When to try next, after the last answer. */
  private nextTryMs = RENEW_MS;
  private trying: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly parts: DispatchLeaseParts) {}

  /** What this instance's claims are fenced by while it dispatches; undefined otherwise. */
  get fence(): LeaseFence | undefined {
    if (!this.held) return undefined;
    if (Date.now() >= this.held.until) {
      this.lose('its lease lapsed before it was renewed');
      return undefined;
    }
    return { name: LEASE_NAME, holder: this.parts.holder, epoch: this.held.epoch };
  }

  /** Tries at once (the first instance dispatches without waiting), then on the timer. */
  async start(): Promise<void> {
    await this.tryNow();
  }

  /** Stops trying; a lease held is let go, for another to take without waiting out its TTL. */
  async stop(): Promise<void> {
    // Not waiting for a try under way: a store that hangs must not hold up the stop.
    this.stopped = true;
    clearTimeout(this.timer);
    const fence = this.fence;
    if (!fence) return;
    this.lose('this instance stops');
    await this.parts.leases.release(fence).catch((error: unknown) => {
      this.parts.logger.warn({ err: error }, 'could not release the dispatcher lease; it lapses');
    });
  }

  /** The store refused a claim under this lease: another instance dispatches now. */
  lost(): void {
    this.lose('the store says another instance holds its lease');
  }

  /** One try at a time, the next armed when it ends: a slow store piles no renewals up. */
  private tryNow(): Promise<void> {
    this.trying ??= this.acquire().finally(() => {
      this.trying = undefined;
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.tryNow(), this.nextTryMs);
      this.timer.unref();
    });
    return this.trying;
  }

  private async acquire(): Promise<void> {
    const askedAt = Date.now();
    try {
      const lease = await this.parts.leases.acquire({
        name: LEASE_NAME,
        holder: this.parts.holder,
        now: askedAt,
        ttlMs: TTL_MS,
      });
      if (this.stopped) return;
      if (lease.holder !== this.parts.holder) {
        if (this.held) this.lose(`${lease.holder} holds its lease`);
        const untilLapse = lease.expiresAt - Date.now() + AFTER_LAPSE_MS;
        this.nextTryMs = Math.min(TTL_MS, Math.max(SOONEST_TRY_MS, untilLapse));
        return;
      }
      this.nextTryMs = RENEW_MS;
      const gained = this.held?.epoch !== lease.epoch;
      if (gained && this.held) this.lose('its lease was taken over meanwhile');
      this.held = { epoch: lease.epoch, until: askedAt + TTL_MS };
      if (gained) {
        this.parts.logger.info(
          { epoch: lease.epoch },
          'this instance dispatches now (it holds the dispatcher lease)',
        );
        this.parts.onChange(true);
      }
    } catch (error) {
      this.nextTryMs = RENEW_MS;
      if (this.held) this.lose('it could not renew its lease');
      this.parts.logger.warn({ err: error }, 'could not take or renew the dispatcher lease');
    }
  }

  private lose(why: string): void {
    if (!this.held) return;
    this.held = undefined;
    this.parts.logger.warn({ reason: why }, `this instance stops dispatching: ${why}`);
    this.parts.onChange(false);
  }
}
