import type { LeaseFence } from './model';
import type { LeaseStore, Logger } from './ports';

/** What a DispatchLease works with. */
export interface DispatchLeaseParts {
  leases: LeaseStore;
  /** This instance. */
  holder: string;
  logger: Logger;
  /** Told when this instance starts or stops being the dispatcher. */
  onChange: (held: boolean) => void;
  /** How long a taken or renewed lease lasts (tests and the bench keep the default). */
  ttlMs?: number;
}

const LEASE_NAME = 'dispatcher';
/**
 * A dead holder's lease lapses within TTL_MS and is taken at the next try (RENEW_MS later at
 * most): a new dispatcher within ~1.3 s. Renewed three times a TTL, so two renewals may fail
 * (a slow store, a starved event loop) before the holder lets go.
 */
const TTL_MS = 1_000;
const RENEW_MS = 300;

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
  private trying: Promise<void> | undefined;
  private readonly ttlMs: number;

  constructor(private readonly parts: DispatchLeaseParts) {
    this.ttlMs = parts.ttlMs ?? TTL_MS;
  }

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
    this.timer = setInterval(() => void this.tryNow(), RENEW_MS);
    this.timer.unref();
  }

  /** Stops trying; a lease held is let go, for another to take without waiting out its TTL. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.trying;
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

  private tryNow(): Promise<void> {
    // One try at a time: a slow store must not pile renewals up.
    this.trying ??= this.acquire().finally(() => {
      this.trying = undefined;
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
        ttlMs: this.ttlMs,
      });
      if (lease.holder !== this.parts.holder) {
        if (this.held) this.lose(`${lease.holder} holds its lease`);
        return;
      }
      const gained = this.held?.epoch !== lease.epoch;
      if (gained && this.held) this.lose('its lease was taken over meanwhile');
      this.held = { epoch: lease.epoch, until: askedAt + this.ttlMs };
      if (gained) {
        this.parts.logger.info(
          { epoch: lease.epoch },
          'this instance dispatches now (it holds the dispatcher lease)',
        );
        this.parts.onChange(true);
      }
    } catch (error) {
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
