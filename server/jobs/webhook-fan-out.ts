import type { ChangeFeed } from './change-feed';
import type { JobChange } from './model';
import type { DeliveryRecord, WebhookRecord } from './webhook-records';
import type { Logger, WebhookStore } from './ports';
import { coalesced } from './serial';
import type { RelayLoop, RelayOptions, WebhookDelivery } from './webhook-delivery';
import { fires, newDelivery, type EventRenderer } from './webhooks';

/** How long a fan-out waits after a change for the ones that follow it. */
const FAN_OUT_BATCH_MS = 25;
/** State changes read per fan-out transaction. */
const FAN_OUT_PAGE = 500;
/** Deliveries stored per fan-out transaction: a page ends before the change that would pass it. */
const MAX_DELIVERIES_PER_PAGE = 1000;
/** While changes fire nothing, the cursor is stored at most this often (never without webhooks). */
const IDLE_ADVANCE_MS = 5000;

/** Of the changes too old to send, how many a webhook would have fired, and between when. */
interface Skipped {
  count: number;
  first: number;
  last: number;
}

/**
 * The relay's fan-out half: the state changes settled so far (the change feed's position, below
 * which no transaction still under way can commit) are matched against every webhook; the
 * deliveries they fire and the cursor past them are stored in one transaction, compare-and-set
 * on the cursor, so among instances one stores each change's deliveries and a stop between the
 * two loses none. What this instance has room to send goes to the delivery half at once.
 */
export class WebhookFanOut {
  /** How far this instance read the changes, past the stored cursor when they fired nothing. */
  private readUpTo = 0;
  private advancedAt = 0;
  private unsubscribe: (() => void) | undefined;
  private fanOutSoon: NodeJS.Timeout | undefined;
  private readonly fanOuts = coalesced(
    () => this.fanOut(),
    () => this.loop.running(),
  );
  private readonly follows = coalesced(
    () => this.followWhileHooked(),
    () => this.loop.running(),
  );

  constructor(
    private readonly deps: {
      webhooks: WebhookStore;
      feed: ChangeFeed;
      render: EventRenderer;
      logger: Logger;
      options: Pick<RelayOptions, 'replayMaxAgeMs'>;
    },
    private readonly loop: RelayLoop,
    private readonly delivery: WebhookDelivery,
  ) {}

  /** Follows the changes now: a webhook was created here (another instance's, by the backstop). */
  follow(): void {
    this.loop.pass(this.follows, 'look for');
  }

  /** Stops following the changes and drops a read waiting to start. */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearTimeout(this.fanOutSoon);
    this.fanOutSoon = undefined;
  }

  /**
   * Follows the change feed only while a webhook exists: without one a change fires nothing, and
   * following makes every instance read each instance's new changes (a query per commit burst).
   */
  private async followWhileHooked(): Promise<void> {
    const hooked = (await this.deps.webhooks.list()).length > 0;
    if (hooked && !this.unsubscribe && this.loop.running()) {
      const unsubscribe = await this.deps.feed.subscribe(() => this.kick());
      if (!this.loop.running()) return unsubscribe();
      this.unsubscribe = unsubscribe;
      // What settled before the subscription, past the stored cursor.
      this.kick();
    } else if (!hooked && this.unsubscribe) {
      this.unsubscribe();
      this.unsubscribe = undefined;
    }
  }

  /** Reads the changes a moment later: a burst of them is read, and stored, in one pass. */
  kick(): void {
    if (!this.loop.running() || this.fanOutSoon) return;
    this.fanOutSoon = setTimeout(() => {
      this.fanOutSoon = undefined;
      this.loop.pass(this.fanOuts, 'read state changes for');
    }, FAN_OUT_BATCH_MS);
  }

  private async fanOut(): Promise<void> {
    const { webhooks, feed, render } = this.deps;
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
        if (!this.loop.running()) return;
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
      const handed = this.delivery.handOff(deliveries, hooks, now);
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
        this.delivery.sendNow(handed);
        if (deliveries.length > handed.length) this.delivery.kick();
      }
      if (!more || !this.loop.running()) return;
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
      if (!this.loop.running()) return;
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
}
