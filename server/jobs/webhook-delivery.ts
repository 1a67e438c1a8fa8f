import { webhookUrlProblem, type RetryStrategy } from '../../contract';
import type { ClaimedDelivery, DeliveryRecord, WebhookRecord } from './webhook-records';
import type { Logger, SecretBox, Settlement, WebhookSender, WebhookStore } from './ports';
import { backoffMs } from './retry';
import { coalesced } from './serial';
import type { HostPolicy } from './webhooks';

/** Requests one instance has in flight at once. */
const AT_ONCE = 32;
/** Requests in flight to one webhook (claims count all instances): a hung receiver holds no more. */
const PER_WEBHOOK = 16;
/** The backstop: deliveries another instance stored, or retries falling due, are looked for this often. */
export const POLL_MS = 5000;
/**
 * A courier's claim lasts twice its request's timeout and this much more before another may
 * send again: long enough to record the outcome, short enough that a crash delays little.
 */
const LEASE_MARGIN_MS = 5000;

export interface RelayOptions {
  timeoutMs: number;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  firstRetryMs: number;
  /**
   * A change older than this when it is read is not sent (the relay was off a long while):
   * each webhook's log gets one `webhook.skipped` record counting those it would have fired.
   */
  replayMaxAgeMs: number;
}

/** What the relay's halves share: whether it runs, its passes (a stop waits for them), its backstop. */
export interface RelayLoop {
  running(): boolean;
  /** Runs a pass the stop waits for; a failure is logged and tried again by the backstop. */
  pass(run: () => Promise<void>, what: string): void;
  /** Arms the backstop this long from now. */
  later(ms: number): void;
}

/**
 * The relay's delivery half: any instance leases due deliveries (an attempt counted at the
 * claim), sends them, and records the outcome; a 2xx delivers, anything else waits out a growing
 * backoff until the attempts run out. An instance that dies mid-request leaves its lease to run
 * out, and another sends again: a receiver may see a delivery twice, with the same `webhook-id`.
 */
export class WebhookDelivery {
  /** Sends under way: a stop waits for them. */
  readonly inFlight = new Set<Promise<void>>();
  /** This instance's requests in flight, by webhook. */
  private readonly heldPerWebhook = new Map<string, number>();
  private aborts = new AbortController();
  private readonly retryStrategy: RetryStrategy;
  private readonly sends = coalesced(
    () => this.deliverDue(),
    () => this.loop.running(),
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
      sender: WebhookSender;
      secrets: SecretBox;
      refusesHost: HostPolicy;
      logger: Logger;
      options: RelayOptions;
    },
    private readonly loop: RelayLoop,
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

  /** Ready to send again after a stop. */
  start(): void {
    this.aborts = new AbortController();
  }

  /** Cuts the requests in flight short: their deliveries are tried again. */
  abort(): void {
    this.aborts.abort();
  }

  /** Looks for due deliveries now (one was just stored). */
  kick(): void {
    this.loop.pass(this.sends, 'deliver');
  }

  /**
   * Leases to this instance, as they are stored, the new deliveries it has room to send now (its
   * free requests, at most PER_WEBHOOK of its own to one webhook): they go at once, without a
   * claim's round trip. The others wait for any instance's claim.
   */
  handOff(deliveries: DeliveryRecord[], hooks: WebhookRecord[], now: number): ClaimedDelivery[] {
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

  /** Sends deliveries leased to this instance. */
  sendNow(claimed: ClaimedDelivery[]): void {
    for (const delivery of claimed) this.track(this.attempt(delivery));
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
      if (!this.loop.running()) {
        await this.giveBack(claimed);
        return;
      }
      this.sendNow(claimed);
      if (claimed.length < free) break;
    }
    const due = await this.deps.webhooks.nextDueAt();
    this.loop.later(due === undefined ? POLL_MS : Math.min(POLL_MS, Math.max(0, due - Date.now())));
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
}
