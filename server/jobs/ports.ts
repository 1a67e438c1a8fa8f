import type { AuditAction, JobState } from '../../contract';
import type { LogInstant } from './log-instant';
import type {
  Admission,
  AttemptOutcome,
  AttemptRecord,
  ClaimedDelivery,
  DeliveryRecord,
  DeliveryState,
  Claim,
  ContainerLogs,
  Dependent,
  DependencyEnd,
  BulkActionRecord,
  BulkActionState,
  BulkResultRecord,
  Job,
  JobChange,
  JobFilter,
  JobListFilter,
  JobSummary,
  NewJob,
  OutputSize,
  OutputStream,
  QueueStateCount,
  RunOptions,
  StateChange,
  Transition,
  WebhookRecord,
} from './model';

/** Storage the domain needs; server/store implements it over SQLite and PostgreSQL. */
export interface JobStore {
  /**
   * Inserts a job in state `submitted` and pins its definition's fingerprint on first use;
   * refuses when a non-final job in the queue holds the name. With `admission`, the job is
   * moved on from `submitted` in the same transaction (both transitions recorded, at its
   * createdAt): one write per submit instead of an insert and a later move.
   */
  insertJob(
    job: NewJob,
    definitionFingerprint: string,
    admission?: Admission,
  ): Promise<{ inserted: true; job: Job } | { inserted: false; nameHeldBy: string }>;
  getJob(id: string): Promise<Job | undefined>;
  /**
   * Compare-and-set on the state, recording the transition in the same transaction, and the
   * attempt that ended when the change carries one. An ended job's output (`keptOutput`) is
   * kept too (replacing any kept before); then, while the project's kept output takes more than
   * its budget, the outputs kept the longest ago are dropped (never this one).
   */
  moveJob(change: StateChange): Promise<Job | undefined>;
  jobsInStates(states: readonly JobState[]): Promise<Job[]>;
  /** Replaces the note of a job still in `state` (what it waits for changed); no transition. */
  setNote(id: string, state: JobState, note: string | null): Promise<void>;
  /** Pending jobs whose time has come, of those that wait for no other job. */
  dueJobs(now: number): Promise<Job[]>;
  /** The earliest schedule_at of a pending job, or not_before after `now` of a runnable one. */
  nextScheduleAt(now: number): Promise<number | undefined>;
  /** Jobs holding a slot (starting, running, cancelling), per queue. */
  activeCountsByQueue(): Promise<Map<string, number>>;
  /**
   * In one transaction: counts the slots held in the queue and in the whole service, moves the
   * oldest runnable jobs that fit to `starting` (note from `noteFor`, owner set, transitions
   * recorded) and returns them. Claims never overlap, across processes too, so no job is claimed
   * twice and no limit is exceeded whoever claims at the same time.
   */
  claimRunnable(claim: Claim, noteFor: (job: Job) => string): Promise<Job[]>;
  /**
   * Makes `to` the owner of every job that holds a slot for `from` (null: jobs claimed before
   * owners were recorded); returns their ids. Two survivors taking over at once split nothing:
   * each job goes to exactly one.
   */
  takeOver(from: string | null, to: string): Promise<string[]>;
  listJobs(filter: JobListFilter): Promise<Job[]>;
  /** How many jobs pass the list's filters, counted up to `atMost + 1` and no further. */
  countJobs(filter: JobFilter, atMost: number): Promise<number>;
  /** The jobs that pass the list's filters counted by state, the first `atMost` + 1 of them. */
  countJobsByState(filter: JobFilter, atMost: number): Promise<Map<JobState, number>>;
  /** The queue's earliest-submitted job in one of `states`, by the (state, queue, seq) index. */
  firstInStates(queue: string, states: readonly JobState[]): Promise<Job | undefined>;
  /**
   * The queue's earliest-submitted job that could start at `now` but waits: runnable past its
   * backoff, or submitted/pending with no schedule_at ahead and no job to wait for.
   */
  firstEligibleWaiting(queue: string, now: number): Promise<Job | undefined>;
  /**
   * A runnable job's place among its queue's jobs that a claim at `now` would take, in the order
   * claims take them (1: next), and how many such wait there; each counted up to `atMost` + 1.
   */
  placeInQueue(
    queue: string,
    seq: number,
    now: number,
    atMost: number,
  ): Promise<{ place: number; waiting: number }>;
  /**
   * Jobs of the given queues counted by state: unfinished ones as they are now; final ones that
   * finished at or after `since`, with how many of those at or after `recentSince`. Exact for a
   * `since` no earlier than the last forgetFinishedCounts' `before`.
   */
  countByQueue(
    queues: readonly string[],
    since: number,
    recentSince: number,
  ): Promise<QueueStateCount[]>;
  transitions(id: string): Promise<Transition[]>;
  /** The sequence number of the latest state change of any job (0 when none). */
  lastChangeSeq(): Promise<number>;
  /**
   * Sequence numbers of the state changes after `afterSeq` that are visible now, in order. A
   * number can be missing for a while (its transaction has not committed yet) or for good (it
   * rolled back): numbers are taken in insert order, not in commit order.
   */
  changeSeqsAfter(afterSeq: number, limit: number): Promise<number[]>;
  /** The project's state changes with `afterSeq` < seq ≤ `uptoSeq`, oldest first. */
  changesAfter(
    project: string,
    afterSeq: number,
    uptoSeq: number,
    limit: number,
  ): Promise<JobChange[]>;
  getLogs(id: string): Promise<ContainerLogs | undefined>;
  /** The job's attempts that ended, oldest first. */
  attempts(id: string): Promise<AttemptRecord[]>;
  /** The output kept of an earlier attempt (the last one's is the job's: getLogs). */
  attemptLogs(id: string, attempt: number): Promise<ContainerLogs | undefined>;
  /** Pending jobs that wait for others (dependsOn not empty), oldest first. */
  jobsAwaitingDependencies(): Promise<Job[]>;
  /** The jobs of these ids that exist, whatever their project. */
  jobSummaries(ids: readonly string[]): Promise<JobSummary[]>;
  /**
   * The ends recorded on these jobs' dependencies: the state each job they name ended in,
   * kept once that job is deleted (only the edges whose job ended).
   */
  dependencyEnds(jobIds: readonly string[]): Promise<DependencyEnd[]>;
  /** The first `limit` jobs that wait for this one, oldest first, and how many in all. */
  dependents(id: string, limit: number): Promise<{ items: Dependent[]; total: number }>;
  /**
   * Stores an array's parent and its first children in one transaction, each moved on from
   * `submitted` as its admission says; refuses, storing nothing, when an unfinished job holds
   * the parent's name.
   */
  insertArray(
    parent: NewJob,
    admission: Admission,
    children: readonly { job: NewJob; admission: Admission }[],
    definitionFingerprint: string,
  ): Promise<{ inserted: true; job: Job } | { inserted: false; nameHeldBy: string }>;
  /**
   * Stores more children of a stored parent in one transaction; 0 when any of them was stored
   * before (another instance resumed the same admission), then none of these is.
   */
  insertArrayChildren(children: readonly { job: NewJob; admission: Admission }[]): Promise<number>;
  /** The ids of the parent's children that are stored, by index. */
  arrayChildIds(parentId: string): Promise<Map<number, string>>;
  /** The parent's children counted by state. */
  arrayCounts(parentId: string): Promise<ArrayCounts>;
  /** Children with an index above `afterIndex` (in `states`, when given), by index. */
  arrayChildren(
    parentId: string,
    states: readonly JobState[] | undefined,
    afterIndex: number,
    limit: number,
  ): Promise<ArrayChildrenPage>;
  /** Parents not yet in a final state, oldest first. */
  unfinishedArrayParents(): Promise<Job[]>;
  /** Moves every child of the parent in one of `move.from` states at once; how many moved. */
  moveArrayChildren(parentId: string, move: ChildrenMove): Promise<number>;
}

/** Bulk actions and their per-job results; any instance may carry one on after another. */
export interface BulkActionStore {
  create(action: BulkActionRecord): Promise<void>;
  get(id: string): Promise<BulkActionRecord | undefined>;
  /** The project's latest actions, newest first. */
  list(project: string, limit: number): Promise<BulkActionRecord[]>;
  /**
   * Takes the oldest running action that no instance holds (its lease ran out) or that `owner`
   * holds already, leasing it to `owner` until `leaseUntil`.
   */
  claim(owner: string, now: number, leaseUntil: number): Promise<BulkActionRecord | undefined>;
  /**
   * Stores the batch's jobs as pending results and moves the cursor past them, renewing the
   * lease, in one transaction; false, storing nothing, unless `owner` holds the running action.
   */
  beginBatch(
    id: string,
    owner: string,
    batch: { pending: BulkResultRecord[]; cursorSeq: number; leaseUntil: number },
  ): Promise<boolean>;
  /** Renews `owner`'s lease; answers the action's state, or undefined when `owner` lost it. */
  heartbeat(id: string, owner: string, leaseUntil: number): Promise<BulkActionState | undefined>;
  /**
   * In one transaction: records what each of these jobs answered and adds them to the counts,
   * ends a running action when `done`, and (when it was stopped) drops the results still pending;
   * answers the state after it, or undefined, recording nothing, when `owner` lost the action.
   */
  finishBatch(
    id: string,
    owner: string,
    batch: { results: BulkResultRecord[]; done: boolean; now: number; leaseUntil: number },
  ): Promise<BulkActionState | undefined>;
  /** The results of the batch a holder began and did not finish. */
  pendingResults(id: string): Promise<BulkResultRecord[]>;
  /** Gives up `owner`'s leases, so that another instance carries its actions on at once. */
  release(owner: string): Promise<void>;
  /** Stops a running action; false when it was not running. */
  stop(id: string, now: number): Promise<boolean>;
  /** Its results for jobs with a seq below `beforeSeq`, newest first. */
  results(id: string, beforeSeq: number, limit: number): Promise<BulkResultRecord[]>;
}

/** Webhooks, the state changes read for them, and their deliveries, shared by every instance. */
export interface WebhookStore {
  /**
   * Stores it unless its project already has `atMost` webhooks (false then): the count and the
   * insert are one step, however many creates run at once on any instance.
   */
  create(webhook: WebhookRecord, atMost: number): Promise<boolean>;
  /** Every project's webhooks (`project` given: that project's), oldest first. */
  list(project?: string): Promise<WebhookRecord[]>;
  /** Deletes it and its deliveries; false when there was none. */
  remove(id: string): Promise<boolean>;
  /** Changes what fires it and where it goes; false when there is none. */
  update(id: string, changes: WebhookChanges): Promise<boolean>;
  /** Replaces its sealed secret, only if it is still the text read (`secrets rotate`). */
  replaceSecret(id: string, readSealed: string, sealed: string): Promise<boolean>;
  /** How far the state changes were read for webhooks; created at `initial` the first time. */
  cursor(initial: number): Promise<number>;
  /**
   * The state changes after `afterSeq` up to `uptoSeq` into one of `states`, oldest first, every
   * project's, at most `limit`.
   */
  changesInto(
    states: readonly JobState[],
    afterSeq: number,
    uptoSeq: number,
    limit: number,
  ): Promise<JobChange[]>;
  /**
   * Moves the cursor from `fromSeq` to `toSeq` and stores the deliveries, in one transaction;
   * false, storing nothing, when the cursor was no longer at `fromSeq` (another instance read).
   */
  advance(fromSeq: number, toSeq: number, deliveries: DeliveryRecord[]): Promise<boolean>;
  /** Stores one delivery (a test event). */
  enqueue(delivery: DeliveryRecord): Promise<void>;
  /**
   * Leases up to `limit` pending deliveries due by `now` that no courier holds, oldest first and
   * at most `perWebhook` held per webhook, counting an attempt on each: a courier that dies
   * mid-request leaves them to another after `leaseUntil`.
   */
  claimDue(
    now: number,
    leaseUntil: number,
    limit: number,
    perWebhook: number,
  ): Promise<ClaimedDelivery[]>;
  /**
   * Records the attempts the claims counted, in one transaction: each delivered, failed for good,
   * or pending again at its `nextAttemptAt`; one claimed again meanwhile is left alone. An attempt
   * that failed (pending, with an error) holds the webhook's other due deliveries back as long.
   */
  settle(settlements: Settlement[]): Promise<void>;
  /** When the earliest pending delivery falls due; undefined when none is pending. */
  nextDueAt(): Promise<number | undefined>;
  /** The webhook's latest deliveries, newest first. */
  deliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]>;
  /** Deletes ended deliveries that ended before `before`; how many went. */
  pruneEnded(before: number, limit: number): Promise<number>;
}

/** What a person may change of a webhook. */
export type WebhookChanges = Partial<
  Pick<WebhookRecord, 'url' | 'states' | 'queues' | 'labels' | 'description'>
>;

/** How one claimed attempt of a delivery went, to be recorded. */
export interface Settlement {
  delivery: Pick<DeliveryRecord, 'id' | 'attempts' | 'webhookId'>;
  outcome: AttemptOutcome & { state: DeliveryState; nextAttemptAt: number; now: number };
}

/** Sends one signed webhook request (the adapter: outbound HTTP). */
export interface WebhookSender {
  send(request: {
    url: string;
    id: string;
    body: string;
    secret: string;
    timeoutMs: number;
    /** Aborted when the instance stops: the attempt is given back, not counted as failed. */
    signal: AbortSignal;
  }): Promise<AttemptOutcome & { delivered: boolean }>;
}

export type ArrayCounts = Map<JobState, number>;

export interface ArrayChildrenPage {
  items: Job[];
  /** Whether more children follow the page. */
  more: boolean;
}

/** Children moved together: released to runnable, or cancelled while they wait. */
export interface ChildrenMove {
  from: readonly JobState[];
  /** Only those that wait for no other job (the others are the dependency check's to move). */
  withoutDependencies?: boolean;
  to: 'runnable' | 'cancelled';
  at: number;
  note: string | null;
}

/** A queue's controls shared by every instance: what operators changed while it runs. */
export interface QueueControl {
  ref: string;
  paused: boolean;
  pausedReason: string | null;
  /** Null: the configured max_running. */
  maxRunning: number | null;
  /** The last change through the API (null: none since the store first saw the queue). */
  changed: { at: number; by: string } | null;
}

/** A change to a queue's controls; a field left out keeps its value. */
export interface QueueControlChange {
  paused?: { reason: string | null } | false;
  maxRunning?: number | null;
}

/** Queues' controls, in the store so that every instance obeys a change at once. */
export interface QueueControlStore {
  /**
   * Stores a row for each queue not seen before (as configured). For a queue whose configured
   * pause or max_running differs from the last one seen, the configuration's wins over what was
   * set through the API: its state becomes the configured one, by `configuration` at `now`.
   */
  register(
    queues: readonly { ref: string; paused: boolean; maxRunning: number }[],
    now: number,
  ): Promise<void>;
  controls(): Promise<QueueControl[]>;
  /** Returns false when no such queue is stored. */
  change(ref: string, change: QueueControlChange, by: string, now: number): Promise<boolean>;
}

/** A schedule's state shared by every instance. */
export interface ScheduleState {
  ref: string;
  paused: boolean;
  pausedReason: string | null;
  /** The time of its last firing (or when the store first saw it). */
  lastFiredAt: number;
}

/** A firing as recorded: with the job it submitted (its state now), or a note why none. */
export interface FiringRecord {
  fireAt: number;
  job: JobSummary | null;
  note: string | null;
}

/** A firing to record; `submit`: the job it submits, stored in the same transaction. */
export interface Firing {
  schedule: string;
  fireAt: number;
  note: string | null;
  submit?: { job: NewJob; definitionFingerprint: string; admission: Admission };
}

/** Recurring schedules' shared state and firings. */
export interface ScheduleStore {
  /** Stores a row for each schedule not seen before (paused as given, fired as of `now`). */
  register(schedules: readonly { ref: string; paused: boolean }[], now: number): Promise<void>;
  states(): Promise<ScheduleState[]>;
  /**
   * Returns false when no such schedule is stored. Resuming counts as a firing at `now`: what
   * came due while paused is not run.
   */
  setPaused(ref: string, paused: boolean, reason: string | null, now: number): Promise<boolean>;
  /**
   * The job of its latest firing before `before` that submitted one: never the job of the
   * firing at `before` itself, which another instance may have just stored.
   */
  lastJob(ref: string, before: number): Promise<JobSummary | undefined>;
  /**
   * In one transaction: records the firing, moves the schedule's last firing to it and stores
   * its job. A firing recorded before (another instance fired it) changes nothing: fired false.
   */
  fire(firing: Firing): Promise<{ fired: false } | { fired: true; job: Job | null }>;
  /** The newest `limit` firings, newest first. */
  recentFirings(ref: string, limit: number): Promise<FiringRecord[]>;
}

/** One audit event as stored; `seq` orders them (newest first in lists). */
export interface AuditEntry {
  id: string;
  /** Null for what happens outside a project (a failed sign-in). */
  project: string | null;
  at: number;
  actor: string;
  address: string;
  action: AuditAction;
  target: string | null;
  /** Never a secret: callers leave values, commands, keys and webhook secrets out. */
  detail: Record<string, unknown>;
}

/** What an audit list asks for, newest first. */
export interface AuditFilter {
  actor?: string;
  action?: AuditAction;
  target?: string;
  /** At or after. */
  since?: number;
  /** Before. */
  until?: number;
  /** Only events older than this position (a page's cursor). */
  beforeSeq?: number;
  limit: number;
}

/** The audit trail's table: appended to in batches, read a project at a time, pruned by age. */
export interface AuditStore {
  /** Stores every entry in one transaction, in the order given. */
  append(entries: readonly AuditEntry[]): Promise<void>;
  list(project: string, filter: AuditFilter): Promise<(AuditEntry & { seq: number })[]>;
  /** Deletes up to `limit` of the oldest events before `before`; how many went. */
  prune(before: number, limit: number): Promise<number>;
}

/** What a prune of one queue would delete now. */
export interface Prunable {
  /** Jobs, an array's children counted. */
  jobs: number;
  /** When the longest-finished of them finished; null when there are none. */
  oldestFinishedAt: number | null;
}

/** Finished jobs past their queue's retention, deleted with everything kept of them. */
export interface RetentionStore {
  /**
   * In one transaction, deletes up to about `limit` of the queue's final jobs that finished
   * before `before`, oldest first, with their transitions, attempts, kept output (taken off the
   * project's total), labels, dependency edges and the schedule firings that name them. An
   * array's parent goes only with its last children, and only once it is final itself; its
   * final children go with it, a batch at a time. The job holding the newest state change is
   * kept: the event streams start from that change. Returns how many jobs it deleted (fewer
   * than `limit`: none is left). Two instances pruning at once delete each job once.
   */
  pruneFinished(queue: string, before: number, limit: number): Promise<number>;
  /**
   * Deletes up to `limit` of the schedule's firings before `before` that submitted no job
   * (skipped, or refused, with their notes); how many went. A firing that submitted one goes
   * with its job.
   */
  pruneFirings(schedule: string, before: number, limit: number): Promise<number>;
  /**
   * Deletes up to `limit` results of the project's oldest bulk action that ended before
   * `before`, and the action with its last results; `limit` while there may be more, 0 once
   * none is left.
   */
  pruneBulkActions(project: string, before: number, limit: number): Promise<number>;
  /**
   * Forgets what the store keeps to count finished jobs quickly (countByQueue) for those that
   * finished before `before`: counts from an earlier `since` are no longer exact.
   */
  forgetFinishedCounts(before: number): Promise<void>;
  /** What pruneFinished would delete of the queue now (the newest change's job left out). */
  prunable(queue: string, before: number): Promise<Prunable>;
  /**
   * Gives the space that deletes freed back to the file system, a bounded step at a time, where
   * the database does not reuse it by itself; returns the bytes given back.
   */
  reclaimSpace(): Promise<number>;
}

/** What the engine is asked to run for one job. */
export interface WorkloadSpec {
  jobId: string;
  /** Which attempt of the job: a workload left over from an earlier one is not this one's. */
  attempt: number;
  image: string;
  command: string[];
  /** NAME=value, sensitive values already opened: only the runtime ever sees them. */
  env: string[];
  cpus: number;
  memoryBytes: number;
  pidsLimit: number;
  /**
   * How long a stop waits between SIGTERM and SIGKILL. A cluster engine may need it when the
   * workload is made (a Swarm service fixes it in its spec), not only when it is stopped.
   */
  stopGraceSeconds: number;
  /** `none` isolates the job; any other value names a network of the engine. */
  network: string;
  runOptions: RunOptions;
}

/** A job's container (or cluster task) as the engine reports it now. */
export interface Workload {
  /** The engine's own id for it. */
  id: string;
  jobId: string;
  /**
   * `created`: made but never started (launching it again starts it); `pending`: the engine is
   * placing or preparing it and starts it by itself (`message` says what it waits for).
   */
  status: 'created' | 'pending' | 'running' | 'exited';
  /** Null while it runs, or when it ended without running (then `message` says why). */
  exitCode: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  /** Where it runs, when the engine has several machines. */
  node: string | null;
  /**
   * Why it waits; or, once exited, why the engine ended it or could not run it (a drained node,
   * a node lost, an image missing), in words for the job's system_note. An exited workload with
   * a message did not end by itself: whatever its exit code, the job did not finish its work.
   */
  message: string | null;
  /** What ended it, when the engine knows and it was not the job itself. */
  cause?: 'node_lost' | 'oom_killed';
  /** Which attempt of the job it runs (1 for workloads made before attempts existed). */
  attempt: number;
}

/** The engine refused the job for a reason of the job's own: the message is for its system_note. */
export class RuntimeError extends Error {}

/** The engine did not answer (stopped, restarting, unreachable): try again later, blame no job. */
export class EngineUnavailableError extends Error {}

/**
 * A container engine: the local Docker Engine, a cluster engine. Every workload is found again by
 * its job id, so a lost answer or a restart never leads to a second container for one job.
 */
export interface ContainerRuntime {
  /** Resolves when the engine answers; throws EngineUnavailableError otherwise. */
  ping(): Promise<void>;
  /**
   * Makes the job's workload and starts it, or returns the one that already exists for the job
   * (starting it if it was only created). Throws RuntimeError or EngineUnavailableError.
   */
  launch(spec: WorkloadSpec): Promise<Workload>;
  /** The job's workload now, or null when the engine has none. */
  inspect(jobId: string): Promise<Workload | null>;
  /** Every workload of this store, whatever its status. */
  list(): Promise<Workload[]>;
  /**
   * Resolves when the workload's status is no longer the one given (it started, or ended). The
   * fast path only: it may reject, or never settle, when the engine goes away; the reconciler
   * is what guarantees an outcome.
   */
  waitForChange(workload: Workload): Promise<void>;
  /** SIGTERM, then SIGKILL after the grace period; resolves at once if it already ended. */
  stop(workload: Workload, graceSeconds: number): Promise<void>;
  /**
   * The last `maxBytes` of its output after `after` (all of it when null), both streams line by
   * line as the engine recorded them; while the workload runs and after it ended, until it is
   * removed. Holds about `maxBytes` in memory, however much was printed.
   */
  readOutput(workload: Workload, window: OutputWindow): Promise<WorkloadOutput>;
  remove(workload: Workload): Promise<void>;
}

export interface OutputWindow {
  /** Only lines read strictly later than this. */
  after: LogInstant | null;
  maxBytes: number;
  /**
   * Go through everything the engine holds after `after`, counting it, rather than only as far
   * back as `maxBytes` reaches: for the output kept once the workload ended.
   */
  whole?: boolean;
  /**
   * Called as output arrives: a long read (seconds, for megabytes of short lines) is the engine
   * answering a real call, which readiness must not take for a hang.
   */
  onProgress?: () => void;
}

/** A line of a workload's output as the engine keeps it. */
export interface WorkloadLine {
  stream: OutputStream;
  /** When the engine read it. */
  at: LogInstant;
  /**
   * The bytes printed, with the newline that ended the line. Without one it is a piece of an
   * over-long line (engines cut those; more pieces follow), or a last line not ended (yet).
   */
  bytes: Buffer;
}

export interface WorkloadOutput {
  /** Whole lines, oldest first (the newest one always, even when longer than `maxBytes`). */
  lines: WorkloadLine[];
  /** Whether earlier lines (after `after`) were left out. */
  truncated: boolean;
  /** With `whole`: every line the engine held after `after`, kept or not. */
  printed?: OutputSize;
}

/** One Jobdeck process on the store, as it last reported itself. */
export interface InstanceRecord {
  id: string;
  host: string;
  pid: number;
  startedAt: number;
  heartbeatAt: number;
  /** Set when it stopped cleanly; its jobs are for another instance to follow then. */
  stoppedAt: number | null;
}

/** The instances sharing a store, so that a survivor can take over a lost one's jobs. */
export interface InstanceRegistry {
  register(instance: InstanceRecord): Promise<void>;
  heartbeat(id: string, at: number): Promise<void>;
  leave(id: string, at: number): Promise<void>;
  list(): Promise<InstanceRecord[]>;
  /** Forgets instances not heard of since `before` (their jobs were taken over long ago). */
  forget(before: number): Promise<void>;
}

/**
 * Something every instance should act on now rather than at its next pass: work to dispatch, a
 * job to settle, state changes for the event streams to read.
 */
export type Signal =
  /** `from`: the instance that asked, which has already dispatched for itself. */
  | { kind: 'dispatch'; from: string }
  | { kind: 'job'; jobId: string }
  | { kind: 'changes' }
  /** A queue's controls changed: read them again. */
  | { kind: 'queues' }
  /** An API key was revoked: forget the keys read so far. */
  | { kind: 'keys' };

/** Wake-ups across the instances sharing a store (and to this one). Best effort: passes catch up. */
export interface Signals {
  publish(signal: Signal): Promise<void>;
  subscribe(listener: (signal: Signal) => void): void;
}

export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

/** The subset of pino the domain logs through. */
export interface Logger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** How a job ended, as trends count it (timeout and error count as failed). */
export type TrendOutcome = 'completed' | 'failed' | 'cancelled';
export type TrendMeasure = 'wait' | 'run';
/** Rollups are kept per hour (for the 24-hour view) and per UTC day (for the 30-day view). */
export type TrendPeriod = 'hour' | 'day';

/**
 * One recorded state change after the trends cursor; `ended` when it is a move to a final state
 * of a job still stored (its queue and times, read as they are now: final, so they stay).
 */
export interface TrendChange {
  seq: number;
  at: number;
  ended: {
    queue: string;
    state: JobState;
    /** Submitted, or its scheduled time when that was later. */
    waitFrom: number;
    /** Its first start (of every attempt), null when it never started. */
    firstStartedAt: number | null;
    /** Its last attempt's start and end. */
    startedAt: number | null;
    finishedAt: number | null;
  } | null;
}

/** Jobs of a queue that ended in one period with one outcome. */
export interface OutcomeCount {
  queue: string;
  period: TrendPeriod;
  start: number;
  outcome: TrendOutcome;
  jobs: number;
}

/** Jobs of a queue that ended in one period whose wait or run fell in one histogram bucket. */
export interface DurationCount {
  queue: string;
  period: TrendPeriod;
  start: number;
  measure: TrendMeasure;
  bucket: number;
  jobs: number;
}

/** The trends rollups and the roller's cursor on the change feed. */
export interface TrendStore {
  /** Every change up to this seq is counted; null before the roller first starts. */
  cursor(): Promise<number | null>;
  /** Sets the cursor where none is set yet; returns the cursor as it is then. */
  startCursor(seq: number): Promise<number>;
  /**
   * The seq just before the first change at or after `at` (the newest seq when none is), found
   * in a few index reads, not a scan: changes are numbered about in the order of their times.
   */
  seqBefore(at: number): Promise<number>;
  /** Up to `limit` changes after `afterSeq`, in order. */
  changesAfter(afterSeq: number, limit: number): Promise<TrendChange[]>;
  /**
   * In one transaction: moves the cursor from `from` to `to` (compare-and-set) and adds the
   * counts to the rollups. False, with nothing added, when the cursor was not at `from`: another
   * instance counted that batch.
   */
  addCounts(
    from: number,
    to: number,
    outcomes: readonly OutcomeCount[],
    durations: readonly DurationCount[],
  ): Promise<boolean>;
  /** Deletes the rollups of the period that start before `before`; how many rows went. */
  pruneBefore(period: TrendPeriod, before: number): Promise<number>;
  /** The queue's counts of the period from `from` on, per period and outcome. */
  outcomes(queue: string, period: TrendPeriod, from: number): Promise<OutcomeCount[]>;
  /** The queue's histograms of the period from `from` on, summed, per measure and bucket. */
  durations(
    queue: string,
    period: TrendPeriod,
    from: number,
  ): Promise<Omit<DurationCount, 'queue' | 'period' | 'start'>[]>;
}
