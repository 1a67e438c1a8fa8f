import { webhookUrlProblem, type RetryStrategy } from '../../contract';
import { GAP_GRACE_MS, type ChangeFeed } from './change-feed';
import type { ClaimedDelivery, DeliveryRecord, JobChange, WebhookRecord } from './model';
import type { JobStore, Logger, SecretBox, Settlement, WebhookSender, WebhookStore } from './ports';
import { backoffMs } from './retry';
import { coalesced } from './serial';
import { fires, newDelivery, type EventRenderer, type HostPolicy } from './webhooks';

/** How long a fan-out waits after a change for the ones that follow it. */
const FAN_OUT_BATCH_MS = 25;
/** State changes read per fan-out transaction. */
const FAN_OUT_PAGE = 500;
/** Deliveries stored per fan-out transaction: a page ends before the change that would pass it. */
const MAX_DELIVERIES_PER_PAGE = 1000;
/** Requests one instance has in flight at once. */
const AT_ONCE = 32;
/** Requests in flight to one webhook (claims count all instances): a hung receiver holds no more. */
const PER_WEBHOOK = 16;
/** The backstop: deliveries another instance stored, or retries falling due, are looked for this often. */
const POLL_MS = 5000;
/**
 * A courier's claim lasts twice its request's timeout and this much more before another may
 * send again: long enough to record the outcome, short enough that a crash delays little.
 */
const LEASE_MARGIN_MS = 5000;
const PRUNE_EVERY_MS = 3_600_000;
/** While changes fire nothing, the cursor is stored at most this often (never without webhooks). */
const IDLE_ADVANCE_MS = 5000;
const PRUNE_BATCH = 1000;

export interface RelayOptions {
  timeoutMs: number;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  firstRetryMs: number;
  /** Ended deliveries are kept this long for the delivery log. */
  keepDeliveriesMs: number;
  /**
   * A change older than this when it is read is not sent (the relay was off a long while):
   * each webhook's log gets one `webhook.skipped` record counting those it would have fired.
   */
  replayMaxAgeMs: number;
}

/** Of the changes too old to send, how many a webhook would have fired, and between when. */
interface Skipped {
  count: number;
  first: number;
  last: number;
}

/**
 * Turns state changes into webhook deliveries and delivers them, at least once.
 *
 * Fan-out: the state changes visible so far (the change feed's position, which waits out
 * uncommitted gaps) are matched against every webhook; the deliveries they fire and the cursor
 * past them are stored in one transaction, compare-and-set on the cursor, so among instances one
 * stores each change's deliveries and a stop between the two loses none.
 *
 * Delivery: any instance leases due deliveries (an attempt counted at the claim), sends them, and
 * records the outcome; a 2xx delivers, anything else waits out a growing backoff until the
 * attempts run out. An instance that dies mid-request leaves its lease to run out, and another
 * sends again: a receiver may see a delivery twice, with the same `webhook-id`.
 */
export class WebhookRelay {
  private stopped = true;
  /** How far this instance read the changes, past the stored cursor when they fired nothing. */
  private readUpTo = 0;
  private advancedAt = 0;
  /** No change is read before this (the start's grace for commits under way). */
  private readsFrom = 0;
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private fanOutSoon: NodeJS.Timeout | undefined;
  private pruner: NodeJS.Timeout | undefined;
  /** Sends under way, and the passes that may start more: a stop waits for all of them. */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly passes = new Set<Promise<void>>();
  /** This instance's requests in flight, by webhook. */
  private readonly heldPerWebhook = new Map<string, number>();
  private aborts = new AbortController();
  private readonly retryStrategy: RetryStrategy;
  private readonly fanOuts = coalesced(
    () => this.fanOut(),
    () => !this.stopped,
  );
  private readonly sends = coalesced(
    () => this.deliverDue(),
    () => !this.stopped,
  );
  private readonly follows = coalesced(
    () => this.followWhileHooked(),
    () => !this.stopped,
  );
  /** Outcomes to record: those that end while a write is under way share the next one. */
  private settling: {
    settlement: Settlement;
    recorded: () => void;
    failed: (e: unknown) => void;
  }[] = [];
  private readonly settles = coalesced(() => this.recordOutcomes());

  constructor(
    private readonly deps: {
      webhooks: WebhookStore;
      store: JobStore;
      feed: ChangeFeed;
      sender: WebhookSender;
      secrets: SecretBox;
      render: EventRenderer;
      refusesHost: HostPolicy;
      logger: Logger;
      options: RelayOptions;
    },
  ) {
    const { firstRetryMs, maxAttempts } = deps.options;
    this.retryStrategy = {
      attempts: maxAttempts,
      backoff: {
        initial_seconds: firstRetryMs / 1000,
        factor: 3,
        max_seconds: 21_600,
        jitter: 0.2,
      },
    };
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.aborts = new AbortController();
    await this.deps.webhooks.cursor(await this.deps.store.lastChangeSeq());
    await this.follows();
    this.pruner = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.pruner.unref();
    this.later(GAP_GRACE_MS);
    this.kick();
  }

  /** Follows the changes now: a webhook was created here (another instance's, by the backstop). */
  follow(): void {
    this.pass(this.follows, 'look for');
  }

  /**
   * Follows the change feed only while a webhook exists: without one a change fires nothing, and
   * following makes every instance read each instance's new changes (a query per commit burst).
   */
  private async followWhileHooked(): Promise<void> {
    const hooked = (await this.deps.webhooks.list()).length > 0;
    if (hooked && !this.unsubscribe && !this.stopped) {
      // The feed starts at the newest number visible now; one taken below it whose transaction
      // is still to commit (another instance's) is waited for as the feed waits for a gap,
      // before the first read past the stored cursor.
      this.readsFrom = Date.now() + GAP_GRACE_MS;
      const unsubscribe = await this.deps.feed.subscribe(() => this.kickFanOut());
      if (this.stopped) return unsubscribe();
      this.unsubscribe = unsubscribe;
      this.later(GAP_GRACE_MS);
    } else if (!hooked && this.unsubscribe) {
      this.unsubscribe();
      this.unsubscribe = undefined;
    }
  }

  /** Aborts the requests in flight (their deliveries are tried again) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearTimeout(this.timer);
    clearTimeout(this.fanOutSoon);
    this.fanOutSoon = undefined;
    clearInterval(this.pruner);
    this.aborts.abort();
    while (this.passes.size + this.inFlight.size > 0) {
      await Promise.allSettled([...this.passes, ...this.inFlight]);
    }
  }

  /** Looks for due deliveries now (one was just stored). */
  kick(): void {
    this.pass(this.sends, 'deliver');
  }

  /** Reads the changes a moment later: a burst of them is read, and stored, in one pass. */
  private kickFanOut(): void {
    if (this.stopped || this.fanOutSoon) return;
    this.fanOutSoon = setTimeout(() => {
      this.fanOutSoon = undefined;
      this.pass(this.fanOuts, 'read state changes for');
    }, FAN_OUT_BATCH_MS);
  }

  private pass(run: () => Promise<void>, what: string): void {
    if (this.stopped) return;
    const running = run().catch((error: unknown) => {
      this.deps.logger.warn({ err: error }, `webhooks: could not ${what} webhooks; trying again`);
      this.later(POLL_MS);
    });
    this.passes.add(running);
    void running.finally(() => this.passes.delete(running));
  }

  private async fanOut(): Promise<void> {
    const { webhooks, feed, render } = this.deps;
    if (Date.now() < this.readsFrom) return; // the start's grace: `later` comes back
    for (;;) {
      const upto = feed.position;
      const cursor = await webhooks.cursor(upto);
      // Read past the stored cursor already, finding nothing to store: no need to read again.
      const read = Math.max(cursor, this.readUpTo);
      if (upto <= read) return;
      const known = await webhooks.list();
      const states = new Set(known.flatMap((hook) => hook.states));
      // Changes before the oldest webhook's start fire none: skipped unread.
      const from = Math.max(read, Math.min(upto, ...known.map((hook) => hook.fromSeq)));
      const changes =
        states.size === 0
          ? []
          : await webhooks.changesInto({
              states: [...states],
              afterSeq: from,
              uptoSeq: upto,
              limit: FAN_OUT_PAGE,
            });
      // Read again once the changes are: a webhook created since starts after every change read
      // (its fromSeq), one created before is matched. One that wants states not read: again.
      const hooks = await webhooks.list();
      if (hooks.some((hook) => hook.states.some((state) => !states.has(state)))) continue;
      const now = Date.now();
      const oldest = changes[0]?.transition.at;
      if (oldest !== undefined && oldest < now - this.deps.options.replayMaxAgeMs) {
        await this.skipStale(cursor, changes, hooks, upto, now);
        if (this.stopped) return;
        continue;
      }
      const full = changes.length === FAN_OUT_PAGE;
      const deliveries: DeliveryRecord[] = [];
      let to = upto;
      for (const change of changes) {
        const fired = hooks.filter((hook) => fires(hook, change));
        // A page's deliveries are stored in one transaction: bounded, however many webhooks.
        if (deliveries.length + fired.length > MAX_DELIVERIES_PER_PAGE) {
          to = change.seq - 1;
          break;
        }
        const event = {
          type: `job.${change.transition.to}`,
          jobId: change.job.id,
          payload: render.change(change),
        };
        deliveries.push(...fired.map((hook) => newDelivery(hook.id, event, now)));
        if (full) to = change.seq;
      }
      const more = full || to < upto;
      const handed = this.handOff(deliveries, hooks, now);
      const idle = known.length === 0 || now - this.advancedAt < IDLE_ADVANCE_MS;
      if (deliveries.length === 0 && idle) {
        // Nothing to store: the cursor is written now and then, not on every change. Read again
        // after a restart, these changes fire nothing again (a webhook created since starts
        // after them).
        this.readUpTo = to;
      } else {
        // Not moved: another instance read these; read the cursor again.
        if (!(await webhooks.advance({ fromSeq: cursor, toSeq: to, deliveries }))) continue;
        this.advancedAt = now;
        this.readUpTo = to;
        for (const delivery of handed) this.track(this.attempt(delivery));
        if (deliveries.length > handed.length) this.kick();
      }
      if (!more || this.stopped) return;
    }
  }

  /**
   * Reads on from `page` while the changes are older than `replayMaxAgeMs` and stores, with the
   * cursor past them, one `webhook.skipped` record per webhook they would have fired, instead of
   * their deliveries: a relay off for weeks sends no weeks-old events. Compare-and-set on the
   * cursor like any fan-out, so among instances one records them.
   */
  private async skipStale(
    cursor: number,
    page: JobChange[],
    hooks: WebhookRecord[],
    upto: number,
    now: number,
  ): Promise<void> {
    const { webhooks, logger, options } = this.deps;
    const cutoff = now - options.replayMaxAgeMs;
    const states = [...new Set(hooks.flatMap((hook) => hook.states))];
    const skipped = new Map<string, Skipped>();
    let to = upto;
    reading: for (;;) {
      for (const change of page) {
        const { at } = change.transition;
        if (at >= cutoff) {
          to = change.seq - 1;
          break reading;
        }
        for (const hook of hooks.filter((h) => fires(h, change))) {
          const tally = skipped.get(hook.id) ?? { count: 0, first: at, last: at };
          skipped.set(hook.id, { count: tally.count + 1, first: tally.first, last: at });
        }
      }
      if (this.stopped) return;
      if (page.length < FAN_OUT_PAGE) break;
      page = await webhooks.changesInto({
        states,
        afterSeq: page.at(-1)!.seq,
        uptoSeq: upto,
        limit: FAN_OUT_PAGE,
      });
    }
    // A webhook created meanwhile that wants states not read: the next pass reads again.
    if ((await webhooks.list()).some((hook) => hook.states.some((s) => !states.includes(s)))) {
      return;
    }
    const hours = options.replayMaxAgeMs / 3_600_000;
    const notes = [...skipped].map(([webhookId, { count, first, last }]) => ({
      ...newDelivery(webhookId, { type: 'webhook.skipped', jobId: null, payload: '' }, now),
      state: 'failed' as const,
      lastError: `${count} ${count === 1 ? 'event' : 'events'} from ${new Date(first).toISOString()} to ${new Date(last).toISOString()} not sent: older than ${hours} h (webhooks.replay_max_age_hours) when read`,
      finishedAt: now,
    }));
    if (!(await webhooks.advance({ fromSeq: cursor, toSeq: to, deliveries: notes }))) return;
    this.advancedAt = now;
    this.readUpTo = to;
    if (skipped.size > 0) {
      logger.warn(
        { skipped: Object.fromEntries([...skipped].map(([id, { count }]) => [id, count])) },
        `webhooks: events older than ${hours} h (webhooks.replay_max_age_hours) were not sent`,
      );
    }
  }

  /**
   * Leases to this instance, as they are stored, the new deliveries it has room to send now (its
   * free requests, at most PER_WEBHOOK of its own to one webhook): they go at once, without a
   * claim's round trip. The others wait for any instance's claim.
   */
  private handOff(
    deliveries: DeliveryRecord[],
    hooks: WebhookRecord[],
    now: number,
  ): ClaimedDelivery[] {
    const byId = new Map(hooks.map((hook) => [hook.id, hook]));
    const handed: ClaimedDelivery[] = [];
    const held = new Map(this.heldPerWebhook);
    for (const delivery of deliveries) {
      if (this.inFlight.size + handed.length >= AT_ONCE) break;
      const hook = byId.get(delivery.webhookId)!;
      if ((held.get(hook.id) ?? 0) >= PER_WEBHOOK) continue;
      held.set(hook.id, (held.get(hook.id) ?? 0) + 1);
      delivery.attempts = 1;
      delivery.leaseUntil = this.leaseFrom(now);
      handed.push({ ...delivery, url: hook.url, sealedSecret: hook.sealedSecret });
    }
    return handed;
  }

  private leaseFrom(now: number): number {
    return now + 2 * this.deps.options.timeoutMs + LEASE_MARGIN_MS;
  }

  private async deliverDue(): Promise<void> {
    for (;;) {
      const free = AT_ONCE - this.inFlight.size;
      if (free <= 0) return; // a request that ends looks again
      const now = Date.now();
      const leaseUntil = this.leaseFrom(now);
      const claimed = await this.deps.webhooks.claimDue({
        now,
        leaseUntil,
        limit: free,
        perWebhook: PER_WEBHOOK,
      });
      if (this.stopped) {
        await this.giveBack(claimed);
        return;
      }
      for (const delivery of claimed) this.track(this.attempt(delivery));
      if (claimed.length < free) break;
    }
    const due = await this.deps.webhooks.nextDueAt();
    this.later(due === undefined ? POLL_MS : Math.min(POLL_MS, Math.max(0, due - Date.now())));
  }

  /** The backstop: a failed pass, a retry falling due, another instance's deliveries. */
  private later(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.pass(this.follows, 'look for');
      this.kickFanOut();
      this.kick();
    }, ms);
    this.timer.unref();
  }

  private track(sending: Promise<void>): void {
    this.inFlight.add(sending);
    void sending
      .catch((error: unknown) => {
        this.deps.logger.warn(
          { err: error },
          'webhooks: could not record a delivery; its lease runs out and it goes again',
        );
      })
      .finally(() => {
        this.inFlight.delete(sending);
        this.kick();
      });
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const { webhookId } = delivery;
    this.heldPerWebhook.set(webhookId, (this.heldPerWebhook.get(webhookId) ?? 0) + 1);
    try {
      await this.attemptHeld(delivery);
    } finally {
      const left = (this.heldPerWebhook.get(webhookId) ?? 1) - 1;
      if (left > 0) this.heldPerWebhook.set(webhookId, left);
      else this.heldPerWebhook.delete(webhookId);
    }
  }

  private async attemptHeld(delivery: ClaimedDelivery): Promise<void> {
    const outcome = await this.send(delivery);
    const now = Date.now();
    const interrupted = this.aborts.signal.aborted && !outcome.delivered;
    const state = outcome.delivered
      ? 'delivered'
      : delivery.attempts >= this.deps.options.maxAttempts && !interrupted
        ? 'failed'
        : 'pending';
    const nextAttemptAt = interrupted
      ? now
      : now + backoffMs(this.retryStrategy, delivery.attempts + 1, Math.random());
    await this.record({ delivery, outcome: { ...outcome, state, nextAttemptAt, now } });
    if (!outcome.delivered && !interrupted) {
      this.deps.logger.warn(
        {
          webhook: delivery.webhookId,
          delivery: delivery.id,
          attempt: delivery.attempts,
          status: outcome.status,
          error: outcome.error,
        },
        state === 'failed'
          ? 'webhook delivery failed for good: its attempts ran out'
          : 'webhook delivery failed; it will be tried again',
      );
    }
  }

  /** Claims made as the instance stopped: due again at once, for whichever instance runs. */
  private async giveBack(claimed: ClaimedDelivery[]): Promise<void> {
    if (claimed.length === 0) return;
    const now = Date.now();
    await this.deps.webhooks.settle(
      claimed.map((delivery) => ({
        delivery,
        outcome: {
          state: 'pending',
          status: null,
          latencyMs: null,
          error: 'not sent: the instance stopped',
          nextAttemptAt: now,
          now,
        },
      })),
    );
  }

  private record(settlement: Settlement): Promise<void> {
    return new Promise((recorded, failed) => {
      this.settling.push({ settlement, recorded, failed });
      void this.settles().catch(() => undefined); // each caller hears of its own failure
    });
  }

  private async recordOutcomes(): Promise<void> {
    const batch = this.settling;
    this.settling = [];
    if (batch.length === 0) return;
    try {
      await this.deps.webhooks.settle(batch.map((item) => item.settlement));
      for (const item of batch) item.recorded();
    } catch (error) {
      for (const item of batch) item.failed(error);
    }
  }

  private async send(delivery: ClaimedDelivery) {
    const { sender, secrets, refusesHost, options } = this.deps;
    const refused = (error: string) => ({ delivered: false, status: null, latencyMs: null, error });
    // Checked again at each send: the rules or the configuration may have changed since the
    // webhook was stored.
    const refusal = webhookUrlProblem(delivery.url) ?? refusesHost(new URL(delivery.url).hostname);
    if (refusal) return refused(`url: ${refusal}`);
    let secret: string;
    try {
      secret = secrets.open(delivery.sealedSecret);
    } catch {
      return refused(
        'its secret was sealed with a secret key the service no longer has: put the key back, or create the webhook again',
      );
    }
    return sender.send({
      url: delivery.url,
      id: delivery.id,
      body: delivery.payload,
      secret,
      timeoutMs: options.timeoutMs,
      signal: this.aborts.signal,
    });
  }

  private async prune(): Promise<void> {
    const before = Date.now() - this.deps.options.keepDeliveriesMs;
    try {
      while (
        (await this.deps.webhooks.pruneEnded({ before, limit: PRUNE_BATCH })) === PRUNE_BATCH
      ) {
        if (this.stopped) return;
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'webhooks: could not prune old deliveries');
    }
  }
}
