import { requestOf, type HostCapacity, type RequestFallback } from './capacity';
import type { Catalog } from './catalog';
import {
  NO_QUEUE_USE,
  NO_USAGE,
  addUsage,
  atShareClause,
  rankQueues,
  scaleUsage,
  shareFigures,
  usageOfJob,
  type ProjectShare,
  type QueueUse,
  type ShareQueue,
  type Usage,
} from './fair-share';
import type { Job } from './model';
import type { JobStore, Logger, ShareBucket } from './ports';

/** Past use is read this many half-lives back: older use weighs less than 0.4 %. */
const HALF_LIVES_KEPT = 8;
/** Buckets per half-life: a bucket's use is decayed as if it ended mid-bucket. */
const BUCKETS_PER_HALF_LIFE = 8;
/** The figures a waiting job's note quotes are read again after this long. */
const NOTE_FIGURES_KEPT_MS = 1000;

export interface ShareLedgerParts {
  store: Pick<JobStore, 'shareUse' | 'addShareUse' | 'firstEligibleWaiting'>;
  catalog: Catalog;
  capacity: HostCapacity;
  fallback: RequestFallback;
  logger: Logger;
}

/** Every project's share now, and the capacity it is counted against. */
export interface ShareSnapshot {
  capacity: Usage;
  projects: ProjectShare[];
}

/**
 * Fair share's bookkeeping: the use of attempts that ended here, written to the store's buckets
 * once per dispatch (not once per job), and the figures each dispatch round ranks queues by.
 */
export class ShareLedger {
  private readonly ended = new Map<string, ShareBucket>();
  private noted: { at: number; snapshot: Promise<ShareSnapshot> } | undefined;

  constructor(private readonly parts: ShareLedgerParts) {}

  private get halfLifeMs() {
    return this.parts.catalog.fairShare.halfLifeMs;
  }

  private get bucketMs() {
    return Math.max(1000, Math.floor(this.halfLifeMs / BUCKETS_PER_HALF_LIFE));
  }

  /** A job left its slot: what it asked for × the time it ran goes to its queue's bucket. */
  attemptEnded(job: Job, at = Date.now()): void {
    if (job.startedAt === null || at <= job.startedAt) return;
    const seconds = (at - job.startedAt) / 1000;
    const use = scaleUsage(usageOfJob(requestOf(job, this.parts.fallback)), seconds);
    const bucketStart = Math.floor(at / this.bucketMs) * this.bucketMs;
    const key = `${job.queue}\u0000${bucketStart}`;
    const kept = this.ended.get(key);
    this.ended.set(key, {
      queue: job.queue,
      bucketStart,
      use: addUsage(kept?.use ?? NO_USAGE, use),
    });
  }

  /** Writes what ended here since the last write; kept for the next one if the store fails. */
  async flush(now = Date.now()): Promise<void> {
    if (this.ended.size === 0) return;
    const entries = [...this.ended.values()];
    this.ended.clear();
    try {
      await this.parts.store.addShareUse(entries, now - HALF_LIVES_KEPT * this.halfLifeMs);
    } catch (error) {
      for (const entry of entries) {
        const key = `${entry.queue}\u0000${entry.bucketStart}`;
        const kept = this.ended.get(key);
        this.ended.set(key, { ...entry, use: addUsage(kept?.use ?? NO_USAGE, entry.use) });
      }
      this.parts.logger.warn({ err: error }, 'could not record ended use for fair share; retrying');
    }
  }

  /** Each queue's use now and decayed past use, read after writing what ended here. */
  async use(now = Date.now()): Promise<Map<string, QueueUse>> {
    await this.flush(now);
    const h = this.halfLifeMs;
    const { held, buckets } = await this.parts.store.shareUse({
      since: now - HALF_LIVES_KEPT * h,
      fallback: this.parts.fallback,
    });
    const use = new Map<string, QueueUse>();
    for (const [queue, nowHeld] of held) use.set(queue, { now: nowHeld, recent: NO_USAGE });
    for (const { queue, bucketStart, use: spent } of buckets) {
      const age = Math.max(0, now - (bucketStart + this.bucketMs / 2));
      const kept = use.get(queue) ?? NO_QUEUE_USE;
      use.set(queue, {
        ...kept,
        recent: addUsage(kept.recent, scaleUsage(spent, 2 ** (-age / h))),
      });
    }
    return use;
  }

  /** The ready hosts' CPUs, memory and GPUs (none where the engine reports no hosts) and the slots. */
  async capacityNow(): Promise<Usage> {
    const engine = await this.parts.capacity.current().catch(() => null);
    const ready = engine?.hosts.filter((h) => h.state === 'ready') ?? [];
    return ready.reduce((sum, h) => addUsage(sum, { ...h, jobs: 0 }), {
      ...NO_USAGE,
      jobs: this.parts.catalog.maxRunning,
    });
  }

  /** A dispatch: queues ranked by share, re-ranked after each start. */
  async round(): Promise<ShareRound> {
    const [use, capacity] = await Promise.all([this.use(), this.capacityNow()]);
    return new ShareRound(this.parts.catalog, use, capacity, this.parts.fallback);
  }

  /** Every project's figures now: which queues wait is read from the store. */
  async snapshot(): Promise<ShareSnapshot> {
    const [use, capacity] = await Promise.all([this.use(), this.capacityNow()]);
    const queues = [...this.parts.catalog.queuesByPriority];
    const now = Date.now();
    const waiting = new Set<string>();
    await Promise.all(
      queues.map(async (q) => {
        if (await this.parts.store.firstEligibleWaiting(q.ref, now)) waiting.add(q.ref);
      }),
    );
    const { projectWeights, halfLifeMs } = this.parts.catalog.fairShare;
    return {
      capacity,
      projects: shareFigures({ queues, projectWeights, use, capacity, halfLifeMs, waiting }),
    };
  }

  /**
   * "project team-a is at its share (62 % of cpus, share 50 %)" for a waiting job of a project
   * that holds its due; undefined otherwise or with one project alone. Read at most every second.
   */
  async clauseFor(project: string): Promise<string | undefined> {
    if (this.parts.catalog.fairShare.projectWeights.size < 2) return undefined;
    const now = Date.now();
    if (!this.noted || now - this.noted.at > NOTE_FIGURES_KEPT_MS) {
      // The read itself is kept: a list's many waiting jobs share one.
      const snapshot = this.snapshot();
      this.noted = { at: now, snapshot };
      snapshot.catch(() => {
        if (this.noted?.snapshot === snapshot) this.noted = undefined;
      });
    }
    const share = (await this.noted.snapshot).projects.find((p) => p.project === project);
    return share && atShareClause(share);
  }
}

/** One dispatch's ranking: what each claim starts is counted before the next queue is chosen. */
export class ShareRound {
  constructor(
    private readonly catalog: Catalog,
    private readonly use: Map<string, QueueUse>,
    private readonly capacity: Usage,
    private readonly fallback: RequestFallback,
  ) {}

  /** The queue to offer room to next, of those still asking. */
  next<Q extends ShareQueue>(asking: readonly Q[]): Q | undefined {
    const { projectWeights, halfLifeMs } = this.catalog.fairShare;
    const [first] = rankQueues({
      queues: asking,
      projectWeights,
      use: this.use,
      capacity: this.capacity,
      halfLifeMs,
    });
    return first && asking.find((q) => q.ref === first.ref);
  }

  /** Jobs a claim of the queue started: they hold their request from now. */
  started(queue: string, jobs: readonly Job[]): void {
    const kept = this.use.get(queue) ?? NO_QUEUE_USE;
    const added = jobs.reduce(
      (sum, j) => addUsage(sum, usageOfJob(requestOf(j, this.fallback))),
      NO_USAGE,
    );
    this.use.set(queue, { ...kept, now: addUsage(kept.now, added) });
  }
}
