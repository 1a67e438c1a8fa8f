import { DEPENDENCY_LIMITS, SLOT_STATES, type JobState } from '../../contract';
import type { Catalog, DefinitionSettings } from './catalog';
import { dependencyTargets } from './dependencies';
import type { WaitingNotes } from './waiting-notes';
import type { EngineHealth, EngineStatus } from './engine-health';
import { notFound, notFoundAttempt, notFoundDefinition } from './errors';
import type { FollowedLogs, JobLogs } from './job-logs';
import type { LogInstant } from './log-instant';
import {
  isArrayParent,
  type AttemptRecord,
  type AttemptUsage,
  type ContainerLogs,
  type Dependent,
  type Job,
  type JobChange,
  type JobSummary,
  type QueueStateCount,
  type Transition,
} from './model';
import { failureGroups, type FailureGroupsOf } from './failure-groups';
import type { JobFilter, JobListFilter } from './list-filter';
import { notes } from './notes';
import type { ArrayChildrenPage, ArrayCounts, ChangesAfterParams, JobStore } from './ports';
import type { LiveQueue, QueueControls } from './queue-controls';
import { limitsOf, type ContainerDefaults } from './container-limits';
import { SIZING_RUNS, SIZING_SCAN, sizingHint, type SizingHint } from './sizing';
import { estimateStart, type StartEstimate } from './start-estimate';
import { DAY_MS, HOUR_MS, type DurationFigures } from './trends';

export interface ReadModelOptions {
  /** The kind of container engine jobs run on (`docker`). */
  engine: string;
  /** The limits a job gets where its definition sets none. */
  defaults: ContainerDefaults;
}

/** What ran for a job: the job, the limits it ran with, the engine it ran on. */
export interface Execution {
  job: Job;
  cpus: number;
  memoryBytes: number;
  engine: string;
  /** While it waits for a slot alone and the queue ran enough jobs of late. */
  startEstimate?: StartEstimate;
  /** What its current attempt used, as far as it was sampled. */
  usage?: AttemptUsage;
}

/** What a job waits for and what waits for it, each as it is now. */
export interface JobDependencies {
  job: Job;
  dependsOn: Dependent[];
  /** The first of them, oldest first. */
  dependents: Dependent[];
  dependentsTotal: number;
}

/** An array job as the array endpoint shows it (counts and children only for a parent). */
export interface JobArray {
  job: Job;
  counts: ArrayCounts;
  children: ArrayChildrenPage;
}

/** A queue as declared, with its jobs counted by state. */
export interface QueueOverview {
  queue: LiveQueue;
  counts: QueueStateCount[];
  /** What an operator on call looks at first: the job waiting longest, the one running longest. */
  oldestWaiting: Job | undefined;
  longestRunning: Job | undefined;
}

/** What the read model works with. */
export interface JobReadModelParts {
  store: JobStore;
  catalog: Catalog;
  /** Why runnable jobs wait, as the dispatcher decides now. */
  waiting: WaitingNotes;
  health: EngineHealth;
  output: JobLogs;
  controls: QueueControls;
  /** A queue's recent run times, from the trends rollups. */
  runTimes: (queue: string) => Promise<DurationFigures>;
  options: ReadModelOptions;
}

/**
 * Everything read of jobs, for one project at a time: Job Detail's job (for JobService) and the
 * read-only extensions. Writes nothing: the operations that change jobs are JobService's.
 */
export class JobReadModel {
  private readonly store: JobStore;
  private readonly catalog: Catalog;
  private readonly waiting: WaitingNotes;
  private readonly health: EngineHealth;
  private readonly output: JobLogs;
  private readonly controls: QueueControls;
  private readonly runTimes: (queue: string) => Promise<DurationFigures>;
  private readonly options: ReadModelOptions;

  constructor(parts: JobReadModelParts) {
    this.store = parts.store;
    this.catalog = parts.catalog;
    this.waiting = parts.waiting;
    this.health = parts.health;
    this.output = parts.output;
    this.controls = parts.controls;
    this.runTimes = parts.runTimes;
    this.options = parts.options;
  }

  /** What the job waits for, and the first jobs that wait for it, each as it is now. */
  async dependencies(project: string, id: string): Promise<JobDependencies> {
    const job = await visibleJob(this.store, project, id);
    const others = await dependencyTargets(this.store, [job]);
    const dependsOn = job.dependsOn.flatMap(({ jobId, type }) => {
      const other: JobSummary | undefined = others.get(jobId);
      return other?.project === project ? [{ ...other, type }] : [];
    });
    const dependents = await this.store.dependents(id, DEPENDENCY_LIMITS.dependentsShown);
    return { job, dependsOn, dependents: dependents.items, dependentsTotal: dependents.total };
  }

  /** A parent's children counted by state and a page of them; a child's place; or nothing. */
  async array(
    project: string,
    id: string,
    page: { states?: readonly JobState[]; afterIndex: number; limit: number },
  ): Promise<JobArray> {
    const job = await visibleJob(this.store, project, id);
    if (!isArrayParent(job))
      return { job, counts: new Map(), children: { items: [], more: false } };
    const [counts, children] = await Promise.all([
      this.store.arrayCounts(id),
      this.store.arrayChildren({
        parentId: id,
        states: page.states,
        afterIndex: page.afterIndex,
        limit: page.limit,
      }),
    ]);
    return { job, counts, children };
  }

  async detail(project: string, id: string): Promise<Job> {
    return this.describe(await visibleJob(this.store, project, id));
  }

  /** The newest unsuccessful jobs of a filter, grouped by cause (failure-groups.ts). */
  failures(filter: JobFilter): Promise<FailureGroupsOf> {
    return failureGroups(this.store, filter);
  }

  async list(filter: JobListFilter): Promise<Job[]> {
    const jobs = await this.store.listJobs(filter);
    const counts = jobs.some((j) => j.state === 'runnable')
      ? await this.store.activeCountsByQueue()
      : undefined;
    return Promise.all(jobs.map((job) => this.describe(job, counts)));
  }

  /** How many jobs pass the list's filters, counted up to `atMost + 1`. */
  count(filter: Omit<JobListFilter, 'limit' | 'beforeSeq'>, atMost: number): Promise<number> {
    return this.store.countJobs(filter, atMost);
  }

  async transitions(project: string, id: string): Promise<Transition[]> {
    await visibleJob(this.store, project, id);
    return this.store.transitions(id);
  }

  /** The job's output after `after`: live while it runs, the stored tail once it ended. */
  async logs(project: string, id: string, after: LogInstant | null): Promise<FollowedLogs> {
    return this.output.follow(await visibleJob(this.store, project, id), after);
  }

  /** The job as it is now, each of its attempts that ended, and what each used. */
  async attempts(
    project: string,
    id: string,
  ): Promise<{ job: Job; items: AttemptRecord[]; usage: AttemptUsage[] }> {
    const job = await visibleJob(this.store, project, id);
    const [items, usage] = await Promise.all([this.store.attempts(id), this.store.usage(id)]);
    return { job, items, usage };
  }

  /** An earlier attempt's output, as kept when it ended; the last attempt's is `logs`. */
  async attemptLogs(project: string, id: string, attempt: number): Promise<ContainerLogs> {
    await visibleJob(this.store, project, id);
    const logs = await this.store.attemptLogs(id, attempt);
    if (!logs) throw notFoundAttempt(id, attempt);
    return logs;
  }

  async execution(project: string, id: string): Promise<Execution> {
    const job = await visibleJob(this.store, project, id);
    const { defaults, engine } = this.options;
    return {
      job,
      ...limitsOf(job, defaults),
      engine,
      startEstimate: await this.startEstimate(job),
      usage: (await this.store.usage(id)).find((used) => used.attempt === job.attempt),
    };
  }

  /** An array's parent takes no slot: nothing to estimate. */
  private async startEstimate(job: Job): Promise<StartEstimate | undefined> {
    if (isArrayParent(job)) return undefined;
    const wait = await this.waiting.slotWait(job);
    return wait && estimateStart(wait.place, wait.slots, await this.runTimes(job.queue));
  }

  /**
   * The project's queues (`only`: that one) as they are now, highest priority first, with their
   * jobs counted (final states over the last day).
   */
  async queues(project: string, only?: string, now = Date.now()): Promise<QueueOverview[]> {
    const queues = this.catalog.queuesByPriority.filter(
      (q) => q.project === project && (only === undefined || q.ref === only),
    );
    const counts = await this.store.countByQueue({
      queues: queues.map((q) => q.ref),
      since: now - DAY_MS,
      recentSince: now - HOUR_MS,
    });
    return Promise.all(
      queues.map(async (queue) => ({
        queue: this.controls.live(queue),
        counts: counts.filter((c) => c.queue === queue.ref),
        // A job scheduled for later, backing off or waiting for others is not late: no alarm.
        oldestWaiting: await this.store.firstEligibleWaiting(queue.ref, now),
        // The earliest submitted of those running: started first, as claims go in order.
        longestRunning: await this.store.firstInStates(queue.ref, ['running']),
      })),
    );
  }

  /** The engine as this instance sees it (every instance watches it on its own). */
  engineStatus(): EngineStatus {
    return this.health.status();
  }

  /** The project's definitions by name, then version (numbers by value: 2 before 10). */
  definitions(project: string): DefinitionSettings[] {
    return this.catalog
      .definitions()
      .filter((definition) => definition.project === project)
      .sort((a, b) => byCodePoint(a.name, b.name) || byVersion(a.version, b.version));
  }

  /** A right-size hint for one of the project's definitions, from its recent runs' usage. */
  async sizing(project: string, ref: string): Promise<SizingHint> {
    const definition = this.catalog.definition(ref);
    if (definition?.project !== project) throw notFoundDefinition(ref);
    const { request, limits } = definition.resources;
    const asked = {
      cpus: Math.max(request.cpus, limits.cpus),
      memoryBytes: Math.max(request.memoryBytes, limits.memoryBytes),
    };
    return sizingHint(await this.store.recentRuns(ref, SIZING_RUNS, SIZING_SCAN), asked);
  }

  /**
   * The project's state changes with `afterSeq` < seq ≤ `uptoSeq`, oldest first, each with the
   * job as it was right after the change (as the list shows it when that is still the latest).
   */
  async changes(page: ChangesAfterParams): Promise<{ seq: number; job: Job }[]> {
    const changes = await this.store.changesAfter(page);
    const counts = changes.some((c) => isLatest(c) && c.job.state === 'runnable')
      ? await this.store.activeCountsByQueue()
      : undefined;
    return Promise.all(
      changes.map(async (change) => ({
        seq: change.seq,
        job: isLatest(change) ? await this.describe(change.job, counts) : asOfChange(change),
      })),
    );
  }

  /** Notes that depend on now: what a runnable job waits for, an engine that does not answer. */
  private async describe(job: Job, counts?: Map<string, number>): Promise<Job> {
    // An array's parent has no slot to wait for: its note counts its children.
    if (isArrayParent(job)) return job;
    if (job.state === 'runnable') {
      return { ...job, systemNote: await this.waiting.waitingNote(job, counts) };
    }
    const since = this.health.unreachableSince;
    if (since !== null && SLOT_STATES.includes(job.state)) {
      return { ...job, systemNote: notes.engineAwayWhileActive(since) };
    }
    return job;
  }
}

/** Another project's job is reported exactly like a missing one: no existence leak. */
export async function visibleJob(
  store: Pick<JobStore, 'getJob'>,
  project: string,
  id: string,
): Promise<Job> {
  const job = await store.getJob(id);
  if (!job || job.project !== project) throw notFound(id);
  return job;
}

/** Whether the job has not changed state since: it still is as the change left it. */
function isLatest({ job, transition }: JobChange): boolean {
  return job.state === transition.to && job.updatedAt === transition.at;
}

/**
 * The job as a change left it, when it has changed since: that change's state, note and time;
 * started only if it had started by then; not finished (only a final change, the latest, is).
 */
function asOfChange({ job, transition }: JobChange): Job {
  const started = job.startedAt !== null && job.startedAt <= transition.at;
  return {
    ...job,
    state: transition.to,
    systemNote: transition.note,
    updatedAt: transition.at,
    startedAt: started ? job.startedAt : null,
    finishedAt: null,
    exitCode: null,
  };
}

// Code point order, as the queues': localeCompare would load ICU's collator.
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byVersion = (a: string, b: string) =>
  /^\d+$/.test(a) && /^\d+$/.test(b) ? Number(a) - Number(b) : byCodePoint(a, b);
