import { requestOf, type HostCapacity, type RequestFallback } from './capacity';
import type { Catalog, QueueSettings } from './catalog';
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
import type { JobStore, Logger, ShareBucket, WaitReason } from './ports';
import { HISTORY_HOURS, shareHistory, type ShareHistory } from './share-history';
import { HOUR_MS } from './trends';
import type { QueueControls } from './queue-controls';
import {
  hasQuotas,
  quotaClause,
  quotaView,
  roomOf,
  type ClaimQuota,
  type QuotaView,
} from './quotas';

/** Past use is read this many half-lives back: older use weighs less than 0.4 %. */
const HALF_LIVES_KEPT = 8;
/** Buckets per half-life: a bucket's use is decayed as if it ended mid-bucket. */
const BUCKETS_PER_HALF_LIFE = 8;
/** The figures a waiting job's note quotes are read again after this long. */
const NOTE_FIGURES_KEPT_MS = 1000;
/** The last day's figures are counted again after this long: a read of a day of runs. */
const HISTORY_KEPT_MS = 60_000;

export interface ShareLedgerParts {
  store: Pick<
    JobStore,
    'shareUse' | 'addShareUse' | 'firstEligibleWaiting' | 'waitingByReason' | 'runsSince'
  >;
  catalog: Catalog;
  /** Whether a queue is paused: a paused queue's waiting jobs hold back nothing it lends. */
  controls: Pick<QueueControls, 'live'>;
  capacity: HostCapacity;
  fallback: RequestFallback;
  logger: Logger;
}

/** Every project's share now, and the capacity it is counted against. */
export interface ShareSnapshot {
  capacity: Usage;
  projects: ProjectShare[];
  /** Where quotas are set: every project's and queue's quota, use, borrowed and lent. */
  quotas?: QuotaView;
}

/**
 * Fair share's bookkeeping: the use of attempts that ended here, written to the store's buckets
 * once per dispatch (not once per job), and the figures each dispatch round ranks queues by.
 */
export class ShareLedger {
  private readonly ended = new Map<string, ShareBucket>();
  private noted: { at: number; snapshot: Promise<ShareSnapshot> } | undefined;
  private history: { at: number; history: Promise<ShareHistory> } | undefined;

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

  /**
   * A dispatch: queues ranked by share, re-ranked after each start. Where quotas are set, which
   * queues not paused have jobs waiting is read too: a lender's waiting work holds back its
   * unused quota (quotas.ts).
   */
  async round(): Promise<ShareRound> {
    const quotas = hasQuotas(this.parts.catalog.fairShare.quotas);
    const [use, capacity, waiting] = await Promise.all([
      this.use(),
      this.capacityNow(),
      quotas ? this.waitingIn(this.notPaused(this.parts.catalog.queuesByPriority)) : undefined,
    ]);
    return new ShareRound(this.parts.catalog, use, capacity, this.parts.fallback, waiting);
  }

  private notPaused<Q extends QueueSettings>(queues: readonly Q[]): Q[] {
    return queues.filter((q) => !this.parts.controls.live(q).paused);
  }

  private async waitingIn(queues: readonly ShareQueue[]): Promise<Set<string>> {
    const now = Date.now();
    const waiting = new Set<string>();
    await Promise.all(
      queues.map(async (q) => {
        if (await this.parts.store.firstEligibleWaiting(q.ref, now)) waiting.add(q.ref);
      }),
    );
    return waiting;
  }

  /** Every project's figures now: which queues wait is read from the store. */
  async snapshot(): Promise<ShareSnapshot> {
    const queues = [...this.parts.catalog.queuesByPriority];
    const [use, capacity, waiting] = await Promise.all([
      this.use(),
      this.capacityNow(),
      this.waitingIn(queues),
    ]);
    const { projectWeights, halfLifeMs, quotas: settings } = this.parts.catalog.fairShare;
    const used = new Map([...use].map(([ref, u]) => [ref, u.now]));
    // As the dispatcher counts them: a paused queue's waiting jobs reclaim nothing.
    const lendersWaiting = new Set(
      this.notPaused(queues).flatMap((q) => (waiting.has(q.ref) ? [q.ref] : [])),
    );
    return {
      capacity,
      projects: shareFigures({ queues, projectWeights, use, capacity, halfLifeMs, waiting }),
      ...(hasQuotas(settings) && {
        quotas: quotaView({ queues, settings, used, waiting: lendersWaiting }),
      }),
    };
  }

  /** The snapshot notes quote, read at most every second: a list's many waiting jobs share one. */
  private notedSnapshot(): Promise<ShareSnapshot> {
    const now = Date.now();
    if (!this.noted || now - this.noted.at > NOTE_FIGURES_KEPT_MS) {
      const snapshot = this.snapshot();
      this.noted = { at: now, snapshot };
      snapshot.catch(() => {
        if (this.noted?.snapshot === snapshot) this.noted = undefined;
      });
    }
    return this.noted.snapshot;
  }

  /** Every project's and queue's last day by hour (share-history.ts), counted at most each minute. */
  lastDay(): Promise<ShareHistory> {
    const now = Date.now();
    if (!this.history || now - this.history.at > HISTORY_KEPT_MS) {
      const history = this.countLastDay(now);
      this.history = { at: now, history };
      history.catch(() => {
        if (this.history?.history === history) this.history = undefined;
      });
    }
    return this.history.history;
  }

  private async countLastDay(now: number): Promise<ShareHistory> {
    const since = Math.floor(now / HOUR_MS) * HOUR_MS - (HISTORY_HOURS - 1) * HOUR_MS;
    const [runs, capacity] = await Promise.all([
      this.parts.store.runsSince(since, this.parts.fallback),
      this.capacityNow(),
    ]);
    const { queuesByPriority: queues, fairShare } = this.parts.catalog;
    return shareHistory({ runs, queues, settings: fairShare.quotas, capacity, now });
  }

  /**
   * Runnable jobs by queue and what they wait for; where quotas are set, those whose queue's or
   * project's quota has no room for what they ask are counted as `quota`, not `slot`.
   */
  async waitingByReason(
    now = Date.now(),
  ): Promise<{ queue: string; reason: WaitReason; count: number }[]> {
    const rows = await this.parts.store.waitingByReason(now, this.parts.fallback);
    const view = hasQuotas(this.parts.catalog.fairShare.quotas)
      ? (await this.notedSnapshot()).quotas
      : undefined;
    const counts = new Map<string, { queue: string; reason: WaitReason; count: number }>();
    for (const { queue, reason, count, need } of rows) {
      const project = this.parts.catalog.queue(queue)?.project;
      const held =
        reason === 'slot' && view && project && quotaClause(view, { ref: queue, project }, need);
      const key = `${queue}\u0000${held ? 'quota' : reason}`;
      const kept = counts.get(key) ?? { queue, reason: held ? 'quota' : reason, count: 0 };
      counts.set(key, { ...kept, count: kept.count + count });
    }
    return [...counts.values()];
  }

  /**
   * "project team-a is at its quota of 8 cpus (borrowing 2 of 2 allowed)" for a waiting job
   * its queue's or project's quota has no room for; undefined otherwise or without quotas.
   */
  async quotaClauseFor(job: Job): Promise<string | undefined> {
    if (!hasQuotas(this.parts.catalog.fairShare.quotas)) return undefined;
    const view = (await this.notedSnapshot()).quotas;
    const need = usageOfJob(requestOf(job, this.parts.fallback));
    return view && quotaClause(view, { ref: job.queue, project: job.project }, need);
  }

  /**
   * "project team-a is at its share (62 % of cpus, share 50 %)" for a waiting job of a project
   * that holds its due; undefined otherwise or with one project alone. Read at most every second.
   */
  async clauseFor(project: string): Promise<string | undefined> {
    if (this.parts.catalog.fairShare.projectWeights.size < 2) return undefined;
    const share = (await this.notedSnapshot()).projects.find((p) => p.project === project);
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
    /** Queues with jobs waiting, where quotas are set. */
    private readonly waiting?: ReadonlySet<string>,
  ) {}

  /**
   * The most one more job of the queue may ask for under its queue's and project's quotas, with
   * what this round started counted; undefined where no quota is set.
   */
  room(queue: ShareQueue): ClaimQuota | undefined {
    const { quotas: settings } = this.catalog.fairShare;
    if (!this.waiting || !hasQuotas(settings)) return undefined;
    const used = new Map([...this.use].map(([ref, u]) => [ref, u.now]));
    const view = quotaView({
      queues: this.catalog.queuesByPriority,
      settings,
      used,
      waiting: this.waiting,
    });
    return { room: roomOf(view, queue), fallback: this.fallback };
  }

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
