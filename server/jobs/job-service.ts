import { ARRAY_CHUNK, childIds, childrenInChunks, followedChildIds, indexesUpTo } from './arrays';
import { cancelMove } from './cancellation';
import { failpoint } from './failpoints';
import {
  DEPENDENCY_LIMITS,
  SLOT_STATES,
  type JobState,
  type SubmitJobRequest,
} from '../../contract';
import type { Catalog, DefinitionSettings } from './catalog';
import { dependencyTargets, judgeDependencies } from './dependencies';
import type { Dispatcher } from './dispatcher';
import type { EngineHealth, EngineStatus } from './engine-health';
import { conflict, invalid, notFound, notFoundAttempt } from './errors';
import type { FollowedLogs, JobLogs } from './job-logs';
import type { LogInstant } from './log-instant';
import {
  isArrayParent,
  parentRole,
  type Admission,
  type AttemptRecord,
  type ContainerLogs,
  type Dependent,
  type Job,
  type JobChange,
  type JobListFilter,
  type JobSummary,
  type NewJob,
  type QueueStateCount,
  type Transition,
} from './model';
import { notes } from './notes';
import type { ArrayChildrenPage, ArrayCounts, JobStore, SecretBox } from './ports';
import type { LiveQueue, QueueControls } from './queue-controls';
import type { ContainerDefaults, Runner } from './runner';
import { ContendedError, admissionOf, type JobStateMachine } from './state-machine';
import { planJob } from './submission';
import { estimateStart, type StartEstimate } from './start-estimate';
import { DAY_MS, HOUR_MS, type DurationFigures } from './trends';

export interface JobServiceOptions {
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

const GENERATED_NAME_ATTEMPTS = 3;

/** What a JobService works with. */
export interface JobServiceParts {
  store: JobStore;
  machine: JobStateMachine;
  catalog: Catalog;
  dispatcher: Dispatcher;
  runner: Runner;
  secrets: SecretBox;
  health: EngineHealth;
  output: JobLogs;
  controls: QueueControls;
  /** A queue's recent run times, from the trends rollups. */
  runTimes: (queue: string) => Promise<DurationFigures>;
  options: JobServiceOptions;
}

/** The three operations of the spec (and the read-only extensions), for one project at a time. */
export class JobService {
  private readonly store: JobStore;
  private readonly machine: JobStateMachine;
  private readonly catalog: Catalog;
  private readonly dispatcher: Dispatcher;
  private readonly runner: Runner;
  private readonly secrets: SecretBox;
  private readonly health: EngineHealth;
  private readonly output: JobLogs;
  private readonly controls: QueueControls;
  private readonly runTimes: (queue: string) => Promise<DurationFigures>;
  private readonly options: JobServiceOptions;

  constructor(parts: JobServiceParts) {
    this.store = parts.store;
    this.machine = parts.machine;
    this.catalog = parts.catalog;
    this.dispatcher = parts.dispatcher;
    this.runner = parts.runner;
    this.secrets = parts.secrets;
    this.health = parts.health;
    this.output = parts.output;
    this.controls = parts.controls;
    this.runTimes = parts.runTimes;
    this.options = parts.options;
  }

  /** `by`: the actor who submits, kept with the job. */
  async submit(project: string, payload: SubmitJobRequest, by: string): Promise<string> {
    for (let attempt = 1; ; attempt += 1) {
      const { job, definitionFingerprint } = planJob(
        payload,
        project,
        this.catalog,
        this.secrets,
        Date.now(),
        by,
      );
      const admission = await this.dependencyAdmission(job);
      const arrayOf = parentRole(job);
      const result = arrayOf
        ? await this.admitArray(job, arrayOf.size, definitionFingerprint, admission, payload)
        : await this.machine.admit(job, definitionFingerprint, admission);
      if (result.inserted) {
        failpoint('after-insert');
        this.dispatcher.admitted(result.job);
        return job.id;
      }
      // A generated name can meet an unfinished job's (one of the same millisecond, with the
      // same random digits): a new id makes a new name. A name the client chose is the client's
      // to change.
      if (payload.name === undefined && attempt < GENERATED_NAME_ATTEMPTS) continue;
      throw invalid(
        `name: "${job.name}" is already held by job ${result.nameHeldBy} in queue ${job.queue}, which has not finished`,
      );
    }
  }

  /**
   * The parent with its first children in one transaction, then the rest a chunk at a time,
   * letting other requests through in between: ten thousand rows in one go held every other
   * submit for the whole write (docs/benchmarks.md). What a crash leaves unstored, the settler
   * stores (ArraySettler).
   */
  private async admitArray(
    parent: NewJob,
    size: number,
    definitionFingerprint: string,
    dependencies: Admission | undefined,
    payload: SubmitJobRequest,
  ) {
    const admission = dependencies ?? admissionOf(parent, parent.createdAt);
    const followed = await this.followedArray(parent, size, payload);
    const ids = childIds(size, new Map(), followed);
    const chunks = childrenInChunks(parent, admission, indexesUpTo(size), ids, ARRAY_CHUNK);
    const first = chunks.next().value!;
    const result = await this.store.insertArray(parent, admission, first, definitionFingerprint);
    if (!result.inserted) return result;
    failpoint('after-array-first-chunk');
    // Heard of like an admitted job; `dispatcher.admitted` then claims its children in its queue.
    this.machine.announce(result.job, 'submitted');
    for (const chunk of chunks) {
      await new Promise((resolve) => setImmediate(resolve));
      await this.store.insertArrayChildren(chunk);
    }
    // Children that follow others are moved on by the dependency check of a full tick.
    if ('links' in parent.array!) this.dispatcher.kick();
    return result;
  }

  /**
   * The children of the array an n_to_n dependency names, by index: an array of this project,
   * of the same size, with its children stored. Refused at the field otherwise.
   */
  private async followedArray(parent: NewJob, size: number, payload: SubmitJobRequest) {
    const field = (payload.depends_on ?? []).findIndex((d) => d.type === 'n_to_n');
    if (field < 0) return null;
    const refuse = (reason: string) => invalid(`depends_on[${field}].job_id: ${reason}`);
    const id = payload.depends_on![field]!.job_id!.toLowerCase();
    const other = await this.store.getJob(id);
    if (!other || other.project !== parent.project) throw refuse(`no job ${id} in this project`);
    const arrayFollowed = parentRole(other);
    if (!arrayFollowed) {
      throw refuse(`job ${id} is not an array job, so n_to_n has no child to follow`);
    }
    if (arrayFollowed.size !== size) {
      throw refuse(
        `job ${id} has ${arrayFollowed.size} children and this array ${size}: n_to_n needs the same size`,
      );
    }
    const followed = await followedChildIds(this.store, parent);
    if (followed === null || followed.length < size) {
      throw refuse(`job ${id} is still storing its children; submit again in a moment`);
    }
    return followed;
  }

  /**
   * A job that waits for others is pending, its note saying for what; once they all ended as
   * asked, it is admitted like any job. A dependency on a job the caller cannot see, or on one
   * that already ended so that it can never be met, is refused at its field: nothing is stored.
   */
  private async dependencyAdmission(job: NewJob): Promise<Admission | undefined> {
    if (job.dependsOn.length === 0) return undefined;
    const verdict = judgeDependencies(job, await dependencyTargets(this.store, [job]));
    if (verdict.kind === 'unmeetable') {
      throw invalid(`depends_on[${verdict.index}].job_id: ${verdict.refusal}`);
    }
    return verdict.kind === 'waiting' ? { to: 'pending', note: verdict.note } : undefined;
  }

  /** What the job waits for, and the first jobs that wait for it, each as it is now. */
  async dependencies(project: string, id: string): Promise<JobDependencies> {
    const job = await this.visibleJob(project, id);
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
    const job = await this.visibleJob(project, id);
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
    return this.describe(await this.visibleJob(project, id));
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
    await this.visibleJob(project, id);
    return this.store.transitions(id);
  }

  /** The job's output after `after`: live while it runs, the stored tail once it ended. */
  async logs(project: string, id: string, after: LogInstant | null): Promise<FollowedLogs> {
    return this.output.follow(await this.visibleJob(project, id), after);
  }

  /** The job as it is now and each of its attempts that ended. */
  async attempts(project: string, id: string): Promise<{ job: Job; items: AttemptRecord[] }> {
    const job = await this.visibleJob(project, id);
    return { job, items: await this.store.attempts(id) };
  }

  /** An earlier attempt's output, as kept when it ended; the last attempt's is `logs`. */
  async attemptLogs(project: string, id: string, attempt: number): Promise<ContainerLogs> {
    await this.visibleJob(project, id);
    const logs = await this.store.attemptLogs(id, attempt);
    if (!logs) throw notFoundAttempt(id, attempt);
    return logs;
  }

  async execution(project: string, id: string): Promise<Execution> {
    const job = await this.visibleJob(project, id);
    const { defaults, engine } = this.options;
    return {
      job,
      cpus: job.cpus ?? defaults.cpus,
      memoryBytes: job.memoryBytes ?? defaults.memoryBytes,
      engine,
      startEstimate: await this.startEstimate(job),
    };
  }

  /** An array's parent takes no slot: nothing to estimate. */
  private async startEstimate(job: Job): Promise<StartEstimate | undefined> {
    if (isArrayParent(job)) return undefined;
    const wait = await this.dispatcher.slotWait(job);
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

  /** The project's definitions by name, then version (numbers by value: 2 before 10). */
  /** The engine as this instance sees it (every instance watches it on its own). */
  engineStatus(): EngineStatus {
    return this.health.status();
  }

  definitions(project: string): DefinitionSettings[] {
    return this.catalog
      .definitions()
      .filter((definition) => definition.project === project)
      .sort((a, b) => byCodePoint(a.name, b.name) || byVersion(a.version, b.version));
  }

  /** The sequence number of the latest state change: where a stream that starts now begins. */
  lastChangeSeq(): Promise<number> {
    return this.store.lastChangeSeq();
  }

  /**
   * The project's state changes with `afterSeq` < seq ≤ `uptoSeq`, oldest first, each with the
   * job as it was right after the change (as the list shows it when that is still the latest).
   */
  async changes(
    project: string,
    afterSeq: number,
    uptoSeq: number,
    limit: number,
  ): Promise<{ seq: number; job: Job }[]> {
    const changes = await this.store.changesAfter({ project, afterSeq, uptoSeq, limit });
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

  /**
   * Waiting jobs are cancelled at once; starting and running ones go through `cancelling`
   * while the container is stopped; a retried cancel is a no-op; a finished job is a conflict.
   */
  /** `by`: the actor who asks, kept with the job. */
  async cancel(project: string, id: string, by: string): Promise<void> {
    let moved: Job | undefined;
    try {
      moved = await this.machine.decideAndMove(id, (job) => {
        if (job.project !== project) throw notFound(id);
        return cancelMove(job, Date.now(), by);
      });
    } catch (error) {
      if (error instanceof ContendedError) {
        throw conflict(`job_id: job ${id} kept changing state; try the cancel again`);
      }
      throw error;
    }
    if (moved === undefined)
      await this.visibleJob(project, id); // no such job is a 404
    // Answer at once: the stop can take the whole grace period.
    // An array's parent has no container: arrays.ts hears of the move and cancels its children.
    else if (moved.state === 'cancelling' && !isArrayParent(moved)) this.runner.nudge(id);
  }

  /** Another project's job is reported exactly like a missing one: no existence leak. */
  private async visibleJob(project: string, id: string): Promise<Job> {
    const job = await this.store.getJob(id);
    if (!job || job.project !== project) throw notFound(id);
    return job;
  }

  /** Notes that depend on now: what a runnable job waits for, an engine that does not answer. */
  private async describe(job: Job, counts?: Map<string, number>): Promise<Job> {
    // An array's parent has no slot to wait for: its note counts its children.
    if (isArrayParent(job)) return job;
    if (job.state === 'runnable') {
      return { ...job, systemNote: await this.dispatcher.waitingNote(job, counts) };
    }
    const since = this.health.unreachableSince;
    if (since !== null && SLOT_STATES.includes(job.state)) {
      return { ...job, systemNote: notes.engineAwayWhileActive(since) };
    }
    return job;
  }
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
