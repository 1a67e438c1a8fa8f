import type { Catalog, QueueSettings } from './catalog';
import type {
  AuditStore,
  Logger,
  Prunable,
  RetentionStore,
  TrendStore,
  IncidentStore,
  WebhookStore,
} from './ports';
import { DAY_MS, keptFrom } from './trends';

export interface RetentionOptions {
  /** How often a pass runs. */
  intervalMs: number;
  /** Jobs deleted per transaction. */
  batchSize: number;
  /** Told how many jobs each queue's pass deleted (the metrics). */
  onPruned?: (queue: string, jobs: number) => void;
  /** The audit trail's events, deleted once older than keepMs. */
  audit?: { store: AuditStore; keepMs: number };
  /** Webhook deliveries that ended over keepMs ago (where webhooks are served). */
  deliveries?: { store: Pick<WebhookStore, 'pruneEnded'>; keepMs: number };
  /** The trends' rollups older than each period keeps. */
  trends?: Pick<TrendStore, 'pruneBefore'>;
  /** The trends' incident windows, deleted with the daily rollups they mark. */
  incidents?: Pick<IncidentStore, 'pruneEnded'>;
  /** The console's sessions past their ends and abandoned sign-ins (where a console signs in). */
  sessions?: { prune(): Promise<void> };
}

/** What a pass would delete of one queue now. */
export interface QueuePlan extends Prunable {
  queue: string;
  /** Jobs that finished before this are past the queue's retention. */
  before: number;
}

/** How many jobs a pass deleted of one queue. */
export interface QueuePruned {
  queue: string;
  jobs: number;
}

/** Between two batches: long enough for the submits waiting on the store to go first. */
const BATCH_PAUSE_MS = 20;
/** The first pass waits this long after a start: recovery and dispatch come first. */
const FIRST_PASS_DELAY_MS = 5000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one pass that deletes what is past its time: finished jobs once past their queue's
 * retention (keepFinishedMs; null keeps them forever), with their schedules' firings and bulk
 * actions, then expired Idempotency-Keys, audit events, webhook deliveries, trend rollups and console sessions; a batch per transaction
 * with a pause between batches so that submits keep their latency, then gives the freed space
 * back where the store needs to be asked. Every instance runs it: the store serializes prunes,
 * and a row deleted by one is not there for the other.
 */
export class RetentionPruner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private halted = false;

  constructor(
    private readonly store: RetentionStore,
    private readonly catalog: Catalog,
    private readonly logger: Logger,
    private readonly options: RetentionOptions,
  ) {}

  start(): void {
    this.halted = false;
    this.schedule(FIRST_PASS_DELAY_MS);
  }

  /** Stops after the batch under way. */
  async stop(): Promise<void> {
    this.halted = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** What a pass at `now` would delete, per queue kept for a limited time; deletes nothing. */
  async plan(now = Date.now()): Promise<QueuePlan[]> {
    const plans: QueuePlan[] = [];
    for (const queue of this.limitedQueues()) {
      const before = now - queue.keepFinishedMs;
      plans.push({ queue: queue.ref, before, ...(await this.store.prunable(queue.ref, before)) });
    }
    return plans;
  }

  /**
   * Deletes what is past its time in every queue, then gives the space back; returns what went
   * per queue (queues with nothing to delete left out).
   */
  async pass(now = Date.now()): Promise<{ pruned: QueuePruned[]; reclaimedBytes: number }> {
    const started = Date.now();
    const pruned: QueuePruned[] = [];
    for (const queue of this.limitedQueues()) {
      const before = now - queue.keepFinishedMs;
      const jobs = await this.inBatches((limit) =>
        this.store.pruneFinished({ queue: queue.ref, before, limit }),
      );
      // A schedule's firings that submitted no job go after its queue's time too.
      for (const schedule of this.catalog.schedules.filter((s) => s.queue === queue.ref)) {
        await this.inBatches((limit) =>
          this.store.pruneFirings({ schedule: schedule.ref, before, limit }),
        );
      }
      if (jobs === 0) continue;
      this.options.onPruned?.(queue.ref, jobs);
      pruned.push({ queue: queue.ref, jobs });
    }
    // A bulk action's results name jobs: they go once every job of the project could.
    for (const [project, keepMs] of this.longestKeepByProject()) {
      const before = now - keepMs;
      await this.inBatches((limit) => this.store.pruneBulkActions({ project, before, limit }));
    }
    // Idempotency-Keys past their window: a retry with one makes a new job anyway.
    await this.inBatches((limit) => this.store.pruneIdempotencyKeys({ before: now, limit }));
    // The overview counts the last day: what finished before it is never counted again.
    await this.store.forgetFinishedCounts(now - DAY_MS);
    const { audit, deliveries, trends, incidents, sessions } = this.options;
    if (audit) {
      await this.inBatches((limit) => audit.store.prune({ before: now - audit.keepMs, limit }));
    }
    if (deliveries) {
      await this.inBatches((limit) =>
        deliveries.store.pruneEnded({ before: now - deliveries.keepMs, limit }),
      );
    }
    // One statement each, as today: a session or a rollup row is a handful per user or queue.
    if (trends) {
      for (const period of ['hour', 'day'] as const) {
        await trends.pruneBefore(period, keptFrom(period, now));
      }
    }
    if (incidents) {
      const before = keptFrom('day', now);
      await this.inBatches((limit) => incidents.pruneEnded({ before, limit }));
    }
    await sessions?.prune();
    let reclaimedBytes = 0;
    if (pruned.length > 0) {
      for (let step = -1; step !== 0 && !this.halted;) {
        step = await this.store.reclaimSpace();
        reclaimedBytes += step;
        if (step > 0) await pause(BATCH_PAUSE_MS);
      }
      this.logger.info(
        {
          jobs: pruned.reduce((sum, queue) => sum + queue.jobs, 0),
          queues: Object.fromEntries(pruned.map((queue) => [queue.queue, queue.jobs])),
          reclaimedBytes,
          ms: Date.now() - started,
        },
        'retention: deleted finished jobs past their time',
      );
    }
    return { pruned, reclaimedBytes };
  }

  /** Deletes a batch at a time, a pause between, until a batch comes short; how many went. */
  private async inBatches(batch: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await batch(this.options.batchSize);
      total += deleted;
      if (deleted < this.options.batchSize || this.halted) return total;
      await pause(BATCH_PAUSE_MS);
    }
  }

  private limitedQueues(): (QueueSettings & { keepFinishedMs: number })[] {
    return this.catalog.queuesByPriority.filter(
      (queue): queue is QueueSettings & { keepFinishedMs: number } => queue.keepFinishedMs !== null,
    );
  }

  /** Per project, its queues' longest time; a project with a queue kept forever is left out. */
  private longestKeepByProject(): Map<string, number> {
    const longest = new Map<string, number | null>();
    for (const queue of this.catalog.queuesByPriority) {
      const kept = longest.get(queue.project);
      if (kept === null) continue;
      longest.set(
        queue.project,
        queue.keepFinishedMs === null ? null : Math.max(kept ?? 0, queue.keepFinishedMs),
      );
    }
    return new Map([...longest].filter((entry): entry is [string, number] => entry[1] !== null));
  }

  private schedule(delayMs: number): void {
    if (this.halted) return;
    this.timer = setTimeout(() => {
      this.running = this.pass()
        .catch((error: unknown) => {
          this.logger.warn({ err: error }, 'retention: a pass failed; the next one tries again');
        })
        .finally(() => this.schedule(this.options.intervalMs));
    }, delayMs);
    this.timer.unref();
  }
}
