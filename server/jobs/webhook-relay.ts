import type { ChangeFeed } from './change-feed';
import type { JobStore, Logger, SecretBox, WebhookSender, WebhookStore } from './ports';
import { POLL_MS, WebhookDelivery, type RelayLoop, type RelayOptions } from './webhook-delivery';
import { WebhookFanOut } from './webhook-fan-out';
import type { EventRenderer, HostPolicy } from './webhooks';

/**
 * Turns state changes into webhook deliveries and delivers them, at least once: the fan-out
 * (webhook-fan-out.ts) stores the deliveries the changes fire, the delivery half
 * (webhook-delivery.ts) sends them. This runs both, their backstop timer and their stop.
 */
export class WebhookRelay {
  private stopped = true;
  private timer: NodeJS.Timeout | undefined;
  /** The passes under way, which may start sends: a stop waits for them. */
  private readonly passes = new Set<Promise<void>>();
  private readonly delivery: WebhookDelivery;
  private readonly fanOut: WebhookFanOut;

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
    const loop: RelayLoop = {
      running: () => !this.stopped,
      pass: (run, what) => this.pass(run, what),
      later: (ms) => this.later(ms),
    };
    this.delivery = new WebhookDelivery(deps, loop);
    this.fanOut = new WebhookFanOut(deps, loop, this.delivery);
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.delivery.start();
    // Where a store's first relay starts: no webhook existed before, so no change before fires.
    await this.deps.webhooks.cursor(await this.deps.store.lastChangeSeq());
    // Not awaited: the feed's first read waits for the transactions under way, however long.
    this.fanOut.follow();
    this.kick();
  }

  /** Follows the changes now: a webhook was created here (another instance's, by the backstop). */
  follow(): void {
    this.fanOut.follow();
  }

  /** Aborts the requests in flight (their deliveries are tried again) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.fanOut.stop();
    clearTimeout(this.timer);
    this.delivery.abort();
    const { inFlight } = this.delivery;
    while (this.passes.size + inFlight.size > 0) {
      await Promise.allSettled([...this.passes, ...inFlight]);
    }
  }

  /** Looks for due deliveries now (one was just stored). */
  kick(): void {
    this.delivery.kick();
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

  /** The backstop: a failed pass, a retry falling due, another instance's deliveries. */
  private later(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fanOut.follow();
      this.fanOut.kick();
      this.kick();
    }, ms);
    this.timer.unref();
  }
}
