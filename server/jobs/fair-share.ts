import type { Resources } from './placement';

/**
 * Fair share between projects and between the queues of a project (docs/guides/fair-share.md):
 * pure, so the dispatcher, the API and the full-size simulation rank alike. A share is
 * dominant-resource (DRF, as Kueue's fair sharing): a project's use is the largest fraction it
 * holds of any one capacity (CPUs, memory, GPUs, the service's slots), counting what its jobs
 * hold now and, decayed by a half-life, what its ended jobs held (Slurm's fair share, AWS Batch's
 * shareDecaySeconds), divided by its weight. The lowest goes first.
 */

/** What a share is counted in: the hosts' CPUs, memory and GPUs, and the service's slots. */
export interface Usage extends Resources {
  jobs: number;
}

export const NO_USAGE: Usage = { cpus: 0, memoryBytes: 0, gpus: 0, jobs: 0 };

const DIMENSIONS = ['cpus', 'memoryBytes', 'gpus', 'jobs'] as const;
export type ShareDimension = (typeof DIMENSIONS)[number];

export const addUsage = (a: Usage, b: Usage): Usage => ({
  cpus: a.cpus + b.cpus,
  memoryBytes: a.memoryBytes + b.memoryBytes,
  gpus: a.gpus + b.gpus,
  jobs: a.jobs + b.jobs,
});

export const scaleUsage = (a: Usage, k: number): Usage => ({
  cpus: a.cpus * k,
  memoryBytes: a.memoryBytes * k,
  gpus: a.gpus * k,
  jobs: a.jobs * k,
});

/** One job's request as a share counts it: its resources and one slot. */
export const usageOfJob = (request: Resources): Usage => ({ ...request, jobs: 1 });

/** A queue's figures: what its jobs hold now, and what its ended jobs held, decayed. */
export interface QueueUse {
  now: Usage;
  /** Amount × seconds held by ended attempts, each weighed by 2^(-age / half-life). */
  recent: Usage;
}

export const NO_QUEUE_USE: QueueUse = { now: NO_USAGE, recent: NO_USAGE };

/**
 * Use as a share counts it: what is held now plus past use as an amount held. An amount `a`
 * held for ever sums, decayed, to a × half-life / ln 2 amount-seconds; dividing by that turns a
 * project's past into the amount it held on average, so a project that held 30 % for the last
 * half-lives counts as holding 30 % more.
 */
export function effectiveUse(use: QueueUse, halfLifeMs: number): Usage {
  return addUsage(use.now, scaleUsage(use.recent, Math.LN2 / (halfLifeMs / 1000)));
}

/** The largest fraction of any capacity the use holds (capacities of 0 left out). */
export function dominantShare(
  use: Usage,
  capacity: Usage,
): { dimension: ShareDimension; fraction: number } {
  let best: { dimension: ShareDimension; fraction: number } = { dimension: 'jobs', fraction: 0 };
  for (const dimension of DIMENSIONS) {
    if (capacity[dimension] <= 0) continue;
    const fraction = use[dimension] / capacity[dimension];
    if (fraction > best.fraction) best = { dimension, fraction };
  }
  return best;
}

/** A queue as fair share sees it. */
export interface ShareQueue {
  ref: string;
  project: string;
  priority: number;
  /** Among the project's queues of the same priority; default 1. */
  weight?: number | undefined;
}

export interface ShareInput {
  queues: readonly ShareQueue[];
  /** Each project's weight; default 1. */
  projectWeights: ReadonlyMap<string, number>;
  /** By queue ref; a queue not listed holds nothing and held nothing. */
  use: ReadonlyMap<string, QueueUse>;
  capacity: Usage;
  halfLifeMs: number;
}

const byRef = (a: ShareQueue, b: ShareQueue) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0);

/**
 * The order in which queues are offered room: projects by their weighted dominant share, lowest
 * first; within a project, by priority (highest first), then by the queue's weighted share.
 */
export function rankQueues(input: ShareInput): ShareQueue[] {
  const effective = new Map(
    input.queues.map((q) => [
      q.ref,
      effectiveUse(input.use.get(q.ref) ?? NO_QUEUE_USE, input.halfLifeMs),
    ]),
  );
  const projectUse = new Map<string, Usage>();
  for (const q of input.queues) {
    projectUse.set(
      q.project,
      addUsage(projectUse.get(q.project) ?? NO_USAGE, effective.get(q.ref)!),
    );
  }
  const weighted = (use: Usage, weight: number | undefined) =>
    dominantShare(use, input.capacity).fraction / (weight ?? 1);
  const projectKey = new Map(
    [...projectUse].map(([p, use]) => [p, weighted(use, input.projectWeights.get(p))]),
  );
  const queueKey = new Map(
    input.queues.map((q) => [q.ref, weighted(effective.get(q.ref)!, q.weight)]),
  );
  return [...input.queues].sort(
    (a, b) =>
      projectKey.get(a.project)! - projectKey.get(b.project)! ||
      (a.project < b.project ? -1 : a.project > b.project ? 1 : 0) ||
      b.priority - a.priority ||
      queueKey.get(a.ref)! - queueKey.get(b.ref)! ||
      byRef(a, b),
  );
}

/** A queue's or project's share now: its weight, what it is due and what it holds. */
export interface ShareFigures {
  weight: number;
  /** What it is due of the capacity: its weight over the weights of those with work. */
  due: number;
  now: Usage;
  /** Past use as an amount held (effectiveUse's second half). */
  recent: Usage;
  /** The largest fraction of any capacity it holds now. */
  dominant: { dimension: ShareDimension; fraction: number };
  /** Whether it holds or waits for room. */
  active: boolean;
}

export interface ProjectShare extends ShareFigures {
  project: string;
  queues: (ShareFigures & { ref: string })[];
}

/**
 * Every project's figures (and its queues'): what each is due, out of the weights of the
 * projects that hold or wait for room (`waiting`: queues with runnable jobs). A project with no
 * work is shown what it would be due if its work came.
 */
export function shareFigures(input: ShareInput & { waiting: ReadonlySet<string> }): ProjectShare[] {
  const projects = [...new Set(input.queues.map((q) => q.project))];
  const perSecond = Math.LN2 / (input.halfLifeMs / 1000);
  const figuresOf = (ref: string) => {
    const use = input.use.get(ref) ?? NO_QUEUE_USE;
    return {
      now: use.now,
      recent: scaleUsage(use.recent, perSecond),
      active: use.now.jobs > 0 || input.waiting.has(ref),
    };
  };
  const rows = projects.map((project) => {
    const queues = input.queues
      .filter((q) => q.project === project)
      .map((q) => ({ queue: q, ...figuresOf(q.ref) }));
    return {
      project,
      weight: input.projectWeights.get(project) ?? 1,
      queues,
      now: queues.reduce((sum, q) => addUsage(sum, q.now), NO_USAGE),
      recent: queues.reduce((sum, q) => addUsage(sum, q.recent), NO_USAGE),
      active: queues.some((q) => q.active),
    };
  });
  const activeWeight = rows.filter((r) => r.active).reduce((sum, r) => sum + r.weight, 0);
  return rows.map((row) => {
    const due = row.weight / (activeWeight + (row.active ? 0 : row.weight));
    // A project's due is split between its queues of the top priority with work.
    const active = row.queues.filter((q) => q.active);
    const top = Math.max(...active.map((q) => q.queue.priority), -Infinity);
    const sharing = active.filter((q) => q.queue.priority === top);
    const sharingWeight = sharing.reduce((sum, q) => sum + (q.queue.weight ?? 1), 0);
    return {
      project: row.project,
      weight: row.weight,
      due,
      now: row.now,
      recent: row.recent,
      dominant: dominantShare(row.now, input.capacity),
      active: row.active,
      queues: row.queues.map((q) => {
        const weight = q.queue.weight ?? 1;
        const isSharing = sharing.includes(q);
        return {
          ref: q.queue.ref,
          weight,
          due: isSharing ? (due * weight) / sharingWeight : 0,
          now: q.now,
          recent: q.recent,
          dominant: dominantShare(q.now, input.capacity),
          active: q.active,
        };
      }),
    };
  });
}

const DIMENSION_WORDS: Record<ShareDimension, string> = {
  cpus: 'cpus',
  memoryBytes: 'memory',
  gpus: 'gpus',
  jobs: 'slots',
};

const percent = (fraction: number) => `${Math.round(fraction * 100)} %`;

/**
 * Why a project's job waits while others start: it holds its due already. Undefined while it
 * holds less (then it is first for the next room, and the job waits for room alone), and while
 * no other project has work (the room it waits for is its own).
 */
export function atShareClause(share: ProjectShare): string | undefined {
  if (!share.active || share.due >= 1 - 1e-9) return undefined;
  if (share.dominant.fraction + 1e-9 < share.due) return undefined;
  const { dimension, fraction } = share.dominant;
  return `project ${share.project} is at its share (${percent(fraction)} of ${DIMENSION_WORDS[dimension]}, share ${percent(share.due)})`;
}
