import { NO_USAGE, addUsage, type ShareDimension, type Usage } from './fair-share';
import type { RequestFallback } from './capacity';
import { formatBytes } from './placement';

/**
 * Quotas that lend and borrow (docs/guides/quotas.md), as Kueue's nominal quota, borrowing
 * limit and lending limit: pure, so the dispatcher, the waiting notes and the API count alike.
 * Quotas are kept at two levels: the projects share the service (the projects' cohort), the
 * queues of a project share the project (its queues' cohort). A member with a quota in a
 * dimension may use it, and borrow past it what the others of its cohort leave unused (up to its
 * borrowing limit and theirs to lend); a member with none in a dimension is not held in it.
 * A lender whose own work waits lends nothing more: borrowed work is reclaimed by waiting.
 */

/** Amounts per dimension; a dimension left out is not limited. */
export type Amounts = Partial<Usage>;

export interface Quota {
  nominal: Amounts;
  /** The most it may use beyond `nominal` of others' unused quota; unset: what is idle. */
  borrowingLimit: Amounts;
  /** The most of its unused quota others may borrow; unset: all of it. */
  lendingLimit: Amounts;
  /** 'preempt': what it lent is taken back at once when its own work waits; absent: by waiting. */
  reclaim?: 'preempt';
}

/** A project or a queue as its cohort sees it. */
export interface QuotaMember {
  id: string;
  quota: Quota | undefined;
  /** What its jobs holding a slot ask for now. */
  used: Usage;
  /** Whether it has runnable jobs waiting: then it lends nothing more. */
  waiting: boolean;
}

/** Why a member can take no more in a dimension: at its quota, and what it borrows. */
export interface QuotaBound {
  quota: number;
  borrowed: number;
  /** Its borrowing limit, when that is what holds it. */
  limit: number | undefined;
  /** Whether others' unused quota is held back for their own waiting work. */
  reclaiming: boolean;
}

/** A member's figures: its quota, use, what it borrows and lends, and the room it has left. */
export interface QuotaFigures {
  /** Its quota as set; undefined: it has none (then nothing limits it). */
  quota: Quota | undefined;
  used: Usage;
  borrowed: Usage;
  lent: Usage;
  /** The most one more job may ask for in each dimension (Infinity: not limited). */
  room: Usage;
  bounds: Partial<Record<ShareDimension, QuotaBound>>;
}

export const DIMENSIONS = ['cpus', 'memoryBytes', 'gpus', 'jobs'] as const;

const UNLIMITED: Usage = { cpus: Infinity, memoryBytes: Infinity, gpus: Infinity, jobs: Infinity };
const EPSILON = 1e-9;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Every member's figures in its cohort, dimension by dimension. */
export function cohortFigures(members: readonly QuotaMember[]): Map<string, QuotaFigures> {
  const figures = new Map<string, QuotaFigures>(
    members.map((m) => [
      m.id,
      {
        quota: m.quota,
        used: m.used,
        borrowed: { ...NO_USAGE },
        lent: { ...NO_USAGE },
        room: { ...UNLIMITED },
        bounds: {},
      },
    ]),
  );
  for (const d of DIMENSIONS) {
    const limited = members.filter((m) => m.quota?.nominal[d] !== undefined);
    const unused = (m: QuotaMember) => Math.max(0, m.quota!.nominal[d]! - m.used[d]);
    const lendable = (m: QuotaMember) => Math.min(m.quota!.lendingLimit[d] ?? Infinity, unused(m));
    const borrowed = (m: QuotaMember) => Math.max(0, m.used[d] - m.quota!.nominal[d]!);
    const offered = limited.map((m) => (m.waiting ? 0 : lendable(m)));
    const totalLendable = sum(limited.map(lendable));
    const totalBorrowed = sum(limited.map(borrowed));
    limited.forEach((m, i) => {
      const f = figures.get(m.id)!;
      const quota = m.quota!.nominal[d]!;
      f.borrowed[d] = borrowed(m);
      // Who lends to whom is not recorded: what is borrowed is counted against each lender
      // in proportion to what it has to lend.
      f.lent[d] =
        totalLendable > 0
          ? Math.min(lendable(m), (totalBorrowed * lendable(m)) / totalLendable)
          : 0;
      // What the others offer, less what is borrowed of it already (its own borrowing too).
      const idle = Math.max(0, sum(offered) - offered[i]! - totalBorrowed);
      const limit = m.quota!.borrowingLimit[d];
      const mayBorrow = Math.min(limit ?? Infinity, f.borrowed[d] + idle);
      f.room[d] = Math.max(0, quota + mayBorrow - m.used[d]);
      f.bounds[d] = {
        quota,
        borrowed: f.borrowed[d],
        limit: limit !== undefined && limit <= f.borrowed[d] + idle + EPSILON ? limit : undefined,
        reclaiming: limited.some((other, j) => j !== i && other.waiting && lendable(other) > 0),
      };
    });
  }
  return figures;
}

export const minRoom = (a: Usage, b: Usage): Usage => ({
  cpus: Math.min(a.cpus, b.cpus),
  memoryBytes: Math.min(a.memoryBytes, b.memoryBytes),
  gpus: Math.min(a.gpus, b.gpus),
  jobs: Math.min(a.jobs, b.jobs),
});

/** The first dimension in which a job asking `need` does not fit `room`, if any. */
export function beyondRoom(need: Usage, room: Usage): ShareDimension | undefined {
  return DIMENSIONS.find((d) => need[d] > room[d] + EPSILON);
}

const rounded = (n: number) => String(Math.round(n * 100) / 100);

/** A quota's amount in words ("8 cpus", "16 GiB of memory", "10 jobs"); `bare`: no unit but bytes. */
function amountIn(d: ShareDimension, value: number, bare = false): string {
  if (d === 'memoryBytes') return bare ? formatBytes(value) : `${formatBytes(value)} of memory`;
  return bare ? rounded(value) : `${rounded(value)} ${d}`;
}

/**
 * "project team-a is at its quota of 8 cpus (borrowing 2 of 2 allowed)": `who` names the
 * project or queue, the bracket what it borrows and why it may not borrow more.
 */
export function atQuotaClause(who: string, d: ShareDimension, bound: QuotaBound): string {
  const borrowing = amountIn(d, bound.borrowed, true);
  // Reclaiming first: it holds whatever the limit, and it is what the job waits for to end.
  const why = bound.reclaiming
    ? `borrowing ${borrowing}; the lenders' own jobs wait`
    : bound.limit !== undefined
      ? `borrowing ${borrowing} of ${amountIn(d, bound.limit, true)} allowed`
      : `borrowing ${borrowing}; no unused quota to borrow`;
  return `${who} is at its quota of ${amountIn(d, bound.quota)} (${why})`;
}

/** What a claim may start under the quotas: `room` for what the jobs ask for together. */
export interface ClaimQuota {
  room: Usage;
  /** What a job stored before requests were kept asks for. */
  fallback: RequestFallback;
}

/** Who has a quota: projects by code, queues by ref. */
export interface QuotaSettings {
  projects: ReadonlyMap<string, Quota>;
  queues: ReadonlyMap<string, Quota>;
}

export const NO_QUOTAS: QuotaSettings = { projects: new Map(), queues: new Map() };

export const hasQuotas = (s: QuotaSettings) => s.projects.size > 0 || s.queues.size > 0;

/** Both cohorts' figures: the projects' in the service, each project's queues' in it. */
export interface QuotaView {
  projects: Map<string, QuotaFigures>;
  queues: Map<string, QuotaFigures>;
}

export function quotaView(input: {
  queues: readonly { ref: string; project: string }[];
  settings: QuotaSettings;
  /** What each queue's jobs holding a slot ask for now. */
  used: ReadonlyMap<string, Usage>;
  /** Queues with runnable jobs waiting. */
  waiting: ReadonlySet<string>;
}): QuotaView {
  const { queues, settings, used, waiting } = input;
  const projectCodes = [...new Set(queues.map((q) => q.project))];
  const projects = cohortFigures(
    projectCodes.map((project) => {
      const own = queues.filter((q) => q.project === project);
      return {
        id: project,
        quota: settings.projects.get(project),
        used: own.reduce((total, q) => addUsage(total, used.get(q.ref) ?? NO_USAGE), NO_USAGE),
        waiting: own.some((q) => waiting.has(q.ref)),
      };
    }),
  );
  const queueFigures = new Map<string, QuotaFigures>();
  for (const project of projectCodes) {
    const cohort = cohortFigures(
      queues
        .filter((q) => q.project === project)
        .map((q) => ({
          id: q.ref,
          quota: settings.queues.get(q.ref),
          used: used.get(q.ref) ?? NO_USAGE,
          waiting: waiting.has(q.ref),
        })),
    );
    for (const [ref, figures] of cohort) queueFigures.set(ref, figures);
  }
  return { projects, queues: queueFigures };
}

/** The most one more job of the queue may ask for: within its queue's and its project's room. */
export function roomOf(view: QuotaView, queue: { ref: string; project: string }): Usage {
  return minRoom(
    view.queues.get(queue.ref)?.room ?? UNLIMITED,
    view.projects.get(queue.project)?.room ?? UNLIMITED,
  );
}

/** Why a job asking `need` waits for quota, in words; undefined when its quota has room. */
export function quotaClause(
  view: QuotaView,
  queue: { ref: string; project: string },
  need: Usage,
): string | undefined {
  const levels = [
    { who: `queue ${queue.ref}`, figures: view.queues.get(queue.ref) },
    { who: `project ${queue.project}`, figures: view.projects.get(queue.project) },
  ];
  for (const { who, figures } of levels) {
    const d = figures && beyondRoom(need, figures.room);
    if (d && figures.bounds[d]) return atQuotaClause(who, d, figures.bounds[d]);
  }
  return undefined;
}
