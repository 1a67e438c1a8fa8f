import { requestOf, type RequestFallback } from './capacity';
import { NO_USAGE, addUsage, usageOfJob, type ShareDimension, type Usage } from './fair-share';
import type { Job } from './model';
import { formatBytes, type Host } from './placement';
import { DIMENSIONS, type Quota, type QuotaSettings } from './quotas';

/**
 * Which borrowed jobs a lender preempts to take back what it lent (docs/guides/quotas.md,
 * "Reclaim"); pure. As Kueue's reclaimWithinCohort: a lender whose quota says `reclaim: preempt`,
 * and whose first waiting job its own quota (unborrowed) would admit but the service cannot
 * start (its slots or its hosts are held), preempts jobs of the members of its cohort that borrow
 * (use beyond their quota): the youngest first, as few as free enough, and none while those
 * already being preempted would free enough once they end.
 */

export interface ReclaimInput {
  /** The lender's first waiting job. */
  waiting: Job;
  /** Every job holding a slot now (starting, running, cancelling). */
  holding: readonly Job[];
  settings: QuotaSettings;
  /** The engine's hosts; undefined where it reports none (slots alone limit). */
  hosts: readonly Host[] | undefined;
  /** The service's max_running, and the waiting job's queue's. */
  serviceMax: number;
  queueMax: number;
  fallback: RequestFallback;
}

export interface ReclaimPlan {
  victims: Job[];
  /** "team-a reclaimed 1 job it lent": why each victim is preempted. */
  reasonFor(victim: Job): string;
}

/** A cohort as reclaim sees it: projects in the service, or the queues of one project. */
interface Level {
  lender: string;
  /** How the lender is named in the reason: `team-a`, `queue team-a::batch`. */
  who: string;
  quotaOf(member: string): Quota | undefined;
  memberOf(job: Job): string;
  inCohort(job: Job): boolean;
}

const EPSILON = 1e-9;

function levelsOf({ waiting, settings }: ReclaimInput): Level[] {
  return [
    {
      lender: waiting.queue,
      who: `queue ${waiting.queue}`,
      quotaOf: (queue) => settings.queues.get(queue),
      memberOf: (job) => job.queue,
      inCohort: (job) => job.project === waiting.project,
    },
    {
      lender: waiting.project,
      who: waiting.project,
      quotaOf: (project) => settings.projects.get(project),
      memberOf: (job) => job.project,
      inCohort: () => true,
    },
  ];
}

/** The borrowed jobs to preempt for `waiting`; undefined: none (it fits, or preempting would not help). */
export function planReclaim(input: ReclaimInput): ReclaimPlan | undefined {
  const { waiting, holding, fallback } = input;
  const usage = (job: Job) => usageOfJob(requestOf(job, fallback));
  const need = usage(waiting);
  const heldInQueue = holding.filter((j) => j.queue === waiting.queue).length;
  if (heldInQueue >= input.queueMax) return undefined; // its own queue is full: nothing to take back
  const fits = fitsOnceFreed(input, need, usage);
  const underWay = holding.filter((j) => j.state === 'running' && j.preemption !== null);
  if (fits(underWay)) return undefined; // what is being preempted frees enough once it ends
  for (const level of levelsOf(input)) {
    const quota = level.quotaOf(level.lender);
    if (quota?.reclaim !== 'preempt') continue;
    const cohort = holding.filter(level.inCohort);
    const used = useByMember(cohort, level, usage);
    const own = used.get(level.lender) ?? NO_USAGE;
    // Only what it lent is taken back: the job must fit within its own quota.
    if (DIMENSIONS.some((d) => own[d] + need[d] > (quota.nominal[d] ?? Infinity) + EPSILON)) {
      continue;
    }
    const victims = chooseVictims(cohort, level, used, usage, underWay, fits);
    if (victims) return { victims, reasonFor: (v) => reasonOf(level, usage(v), quota) };
  }
  return undefined;
}

function useByMember(jobs: readonly Job[], level: Level, usage: (j: Job) => Usage) {
  const used = new Map<string, Usage>();
  for (const job of jobs) {
    const member = level.memberOf(job);
    used.set(member, addUsage(used.get(member) ?? NO_USAGE, usage(job)));
  }
  return used;
}

/**
 * The youngest borrowed job that frees enough alone; else the youngest borrowed jobs, each while
 * its member still borrows in a dimension it uses, until the waiting job fits, and then each of
 * them not needed after all kept, the oldest first. A job counts as borrowed while its member
 * uses more than its quota: Kueue's "candidates from ClusterQueues that borrow".
 */
function chooseVictims(
  cohort: readonly Job[],
  level: Level,
  used: ReadonlyMap<string, Usage>,
  usage: (j: Job) => Usage,
  underWay: readonly Job[],
  fits: (freed: readonly Job[]) => boolean,
): Job[] | undefined {
  const candidates = cohort
    .filter(
      (j) =>
        j.state === 'running' &&
        j.preemption === null &&
        level.memberOf(j) !== level.lender &&
        level.quotaOf(level.memberOf(j)) !== undefined,
    )
    .sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0));
  const left = new Map(used);
  for (const job of underWay) {
    if (!level.inCohort(job)) continue;
    const member = level.memberOf(job);
    left.set(member, minus(left.get(member) ?? NO_USAGE, usage(job)));
  }
  const borrows = (job: Job) => {
    const quota = level.quotaOf(level.memberOf(job))!;
    const now = left.get(level.memberOf(job)) ?? NO_USAGE;
    const own = usage(job);
    return DIMENSIONS.some(
      (d) => own[d] > 0 && quota.nominal[d] !== undefined && now[d] > quota.nominal[d] + EPSILON,
    );
  };
  // One job alone that frees enough, the youngest such, before a greedy choice of several.
  const single = candidates.find((j) => borrows(j) && fits([...underWay, j]));
  if (single) return [single];
  const chosen: Job[] = [];
  for (const job of candidates) {
    if (!borrows(job)) continue;
    chosen.push(job);
    const member = level.memberOf(job);
    left.set(member, minus(left.get(member) ?? NO_USAGE, usage(job)));
    if (fits([...underWay, ...chosen])) break;
  }
  if (!fits([...underWay, ...chosen])) return undefined;
  for (const job of [...chosen].reverse()) {
    const without = chosen.filter((j) => j !== job);
    if (fits([...underWay, ...without])) chosen.splice(chosen.indexOf(job), 1);
  }
  return chosen;
}

const minus = (a: Usage, b: Usage): Usage => ({
  cpus: a.cpus - b.cpus,
  memoryBytes: a.memoryBytes - b.memoryBytes,
  gpus: a.gpus - b.gpus,
  jobs: a.jobs - b.jobs,
});

/** Whether the waiting job could start once `freed` have left their slots and hosts. */
function fitsOnceFreed(input: ReclaimInput, need: Usage, usage: (j: Job) => Usage) {
  return (freed: readonly Job[]): boolean => {
    if (input.holding.length - freed.length >= input.serviceMax) return false;
    if (!input.hosts) return true;
    const gone = new Set(freed.map((j) => j.id));
    return input.hosts.some((host) => {
      if (host.state !== 'ready') return false;
      const held = input.holding
        .filter((j) => j.host === host.id && !gone.has(j.id))
        .reduce((sum, j) => addUsage(sum, usage(j)), NO_USAGE);
      return (['cpus', 'memoryBytes', 'gpus'] as const).every(
        (d) => held[d] + need[d] <= host[d] + EPSILON,
      );
    });
  };
}

/** "team-a reclaimed 2 cpus it lent": the victim's part of the first dimension the lender lends. */
function reasonOf(level: Level, victim: Usage, quota: Quota): string {
  const d = DIMENSIONS.find((dim) => quota.nominal[dim] !== undefined && victim[dim] > 0) ?? 'jobs';
  return `${level.who} reclaimed ${amountInWords(d, victim[d])} it lent`;
}

const UNITS: Record<Exclude<ShareDimension, 'memoryBytes'>, [string, string]> = {
  cpus: ['CPU', 'CPUs'],
  gpus: ['GPU', 'GPUs'],
  jobs: ['job', 'jobs'],
};

function amountInWords(d: ShareDimension, value: number): string {
  if (d === 'memoryBytes') return `${formatBytes(value)} of memory`;
  const n = Math.round(value * 100) / 100;
  const [one, many] = UNITS[d];
  return `${n} ${n === 1 ? one : many}`;
}
