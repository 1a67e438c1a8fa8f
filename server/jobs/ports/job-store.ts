import type { JobState } from '../../../contract';
import type {
  Admission,
  AttemptRecord,
  AttemptUsage,
  Claim,
  ContainerLogs,
  DependencyEnd,
  Dependent,
  HeldKey,
  IdempotencyKey,
  Job,
  JobChange,
  JobSummary,
  NewJob,
  OwnerFence,
  Preemption,
  QueueStateCount,
  RunUsage,
  StateChange,
  Transition,
} from '../model';
import type { AuditEntry } from './audit';
import type { JobFilter, JobListFilter } from '../list-filter';
import type { RequestFallback } from '../capacity';
import type { Usage } from '../fair-share';

export const WAIT_REASONS = ['room', 'backoff', 'quota', 'slot'] as const;
export type WaitReason = (typeof WAIT_REASONS)[number];

/** Runnable jobs of a queue that wait for one reason and ask for the same. */
export interface WaitingCount {
  queue: string;
  reason: WaitReason;
  count: number;
  need: Usage;
}

/** An attempt that held a slot: from its start to its end (null: it holds one still). */
export interface SlotRun {
  queue: string;
  startedAt: number;
  endedAt: number | null;
  use: Usage;
}

/** A queue's ended attempts' use (amount × seconds) within one time bucket (fair share). */
export interface ShareBucket {
  queue: string;
  bucketStart: number;
  use: Usage;
}

/**
 * What storing a new job came to: stored, or refused with nothing written because an unfinished
 * job of the queue holds its name, because its Idempotency-Key is held (null: by a row that
 * was gone again when read), or because a job it waits for that had not ended as the submit
 * checked it (not in Admission.dependencyEnds) is no longer stored (`dependencyGone`: its id).
 */
export type InsertOutcome =
  | { inserted: true; job: Job }
  | { inserted: false; nameHeldBy: string }
  | { inserted: false; keyHeldBy: HeldKey | null }
  | { inserted: false; dependencyGone: string };

/** Storage the domain needs; server/store implements it over SQLite and PostgreSQL. */
export interface JobStore {
  /**
   * Inserts a job in state `submitted` and pins its definition's fingerprint on first use;
   * refuses when a non-final job in the queue holds the name. With `admission`, the job is
   * moved on from `submitted` in the same transaction (both transitions recorded, at its
   * createdAt): one write per submit instead of an insert and a later move. With `idempotency`,
   * the key is stored in the same transaction, in the job's project; a live key (or the same
   * key twice in one batch) refuses the insert, which then stores nothing. Its dependencies are
   * stored with the ends in `admission.dependencyEnds`; with those given, a job it names that is
   * not among them and no longer stored refuses the insert too (`dependencyGone`).
   */
  insertJob(
    job: NewJob,
    definitionFingerprint: string,
    admission?: Admission,
    idempotency?: IdempotencyKey,
  ): Promise<InsertOutcome>;
  /** The job a key made in the project, while it holds (expiresAt after `now`). */
  heldKey(project: string, key: string, now: number): Promise<HeldKey | undefined>;
  getJob(id: string): Promise<Job | undefined>;
  /**
   * Compare-and-set on the state, recording the transition in the same transaction, and the
   * attempt that ended when the change carries one. An ended job's output (`keptOutput`) is
   * kept too (replacing any kept before); then, while the project's kept output takes more than
   * its budget, the outputs kept the longest ago are dropped (never this one, nor another kept
   * in the same commit). Moves asked for together may share one commit; each is answered for
   * itself: the job moved, undefined when its state refused it, JobLostError when its fence did.
   */
  moveJob(change: StateChange): Promise<Job | undefined>;
  jobsInStates(states: readonly JobState[]): Promise<Job[]>;
  /** Replaces the note of a job still in `state` (what it waits for changed); no transition. */
  setNote(params: SetNoteParams): Promise<void>;
  /**
   * Marks a job running on `attempt` as being preempted, with its note and its audit event; no
   * transition (it runs until its container ends). False when it has moved on, or is being
   * preempted already: then nothing is stored.
   */
  requestPreemption(params: PreemptionParams): Promise<boolean>;
  /** Pending jobs whose time has come, of those that wait for no other job. */
  dueJobs(now: number): Promise<Job[]>;
  /** The earliest schedule_at of a pending job, or not_before after `now` of a runnable one. */
  nextScheduleAt(now: number): Promise<number | undefined>;
  /** Jobs holding a slot (starting, running, cancelling), per queue. */
  activeCountsByQueue(): Promise<Map<string, number>>;
  /**
   * Fair share's figures: per queue, what its jobs holding a slot ask for (and a slot each), and
   * its ended use by bucket from `since` on.
   */
  shareUse(params: {
    since: number;
    fallback: RequestFallback;
  }): Promise<{ held: Map<string, Usage>; buckets: ShareBucket[] }>;
  /**
   * Runnable jobs by queue, what they wait for and what they ask for: `room` (no host has room,
   * as their queue's last claim found), `backoff` (before their next attempt's time), `slot` (a
   * slot, their turn or their quota: the domain tells a quota's hold by what they ask for).
   */
  waitingByReason(now: number, fallback: RequestFallback): Promise<WaitingCount[]>;
  /** Every run of a job that held a slot at or after `since`: its queue, times and request. */
  runsSince(since: number, fallback: RequestFallback): Promise<SlotRun[]>;
  /** Adds ended use to its buckets, and forgets the buckets older than `forgetBefore`. */
  addShareUse(entries: readonly ShareBucket[], forgetBefore: number): Promise<void>;
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
  takeOver(params: TakeOverParams): Promise<string[]>;
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
  placeInQueue(params: PlaceInQueueParams): Promise<{ place: number; waiting: number }>;
  /**
   * Jobs of the given queues counted by state: unfinished ones as they are now; final ones that
   * finished at or after `since`, with how many of those at or after `recentSince`. Exact for a
   * `since` no earlier than the last forgetFinishedCounts' `before`.
   */
  countByQueue(params: CountByQueueParams): Promise<QueueStateCount[]>;
  transitions(id: string): Promise<Transition[]>;
  /** The sequence number of the latest state change of any job (0 when none). */
  lastChangeSeq(): Promise<number>;
  /**
   * How far the state changes can be read without missing one. Numbers are taken in insert
   * order, not in commit order: a number can be missing for a while (its transaction has not
   * committed yet) or for good (it rolled back). The first call of a process waits until the
   * transactions under way then have ended.
   */
  changeHorizon(): Promise<ChangeHorizon>;
  /** The project's state changes with `afterSeq` < seq ≤ `uptoSeq`, oldest first. */
  changesAfter(params: ChangesAfterParams): Promise<JobChange[]>;
  getLogs(id: string): Promise<ContainerLogs | undefined>;
  /** The job's attempts that ended, oldest first. */
  attempts(id: string): Promise<AttemptRecord[]>;
  /** The output kept of an earlier attempt (the last one's is the job's: getLogs). */
  attemptLogs(id: string, attempt: number): Promise<ContainerLogs | undefined>;
  /**
   * Records a sample of an attempt's usage, counting it: its figures replace the last sample's,
   * its peak only a lower one (a sample never lowers the peak kept).
   */
  recordUsage(jobId: string, usage: Omit<AttemptUsage, 'samples'>): Promise<void>;
  /** What each attempt of the job used, as far as it was sampled, oldest first. */
  usage(jobId: string): Promise<AttemptUsage[]>;
  /**
   * The definition's attempts that ended with usage figures, newest first, at most `limit`,
   * looked for among its newest `scan` jobs (so that a definition of many jobs without figures
   * costs a bounded read).
   */
  recentRuns(definition: string, limit: number, scan: number): Promise<RunUsage[]>;
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
   * the parent's name or (as insertJob) its Idempotency-Key is held, or a job the parent waits
   * for is gone (as insertJob).
   */
  insertArray(
    parent: NewJob,
    admission: Admission,
    children: readonly { job: NewJob; admission: Admission }[],
    definitionFingerprint: string,
    idempotency?: IdempotencyKey,
  ): Promise<InsertOutcome>;
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
  arrayChildren(params: ArrayChildrenParams): Promise<ArrayChildrenPage>;
  /** Parents not yet in a final state, oldest first. */
  unfinishedArrayParents(): Promise<Job[]>;
  /** Moves every child of the parent in one of `move.from` states at once; how many moved. */
  moveArrayChildren(parentId: string, move: ChildrenMove): Promise<number>;
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

// Parameters of the methods that would otherwise take two or more arguments of one type side by
// side, where a swap would still compile.

export interface SetNoteParams {
  id: string;
  state: JobState;
  note: string | null;
  /** Only while this ownership holds (as StateChange.fence); a note refused so is not written. */
  fence?: OwnerFence;
}

export interface PreemptionParams {
  id: string;
  attempt: number;
  preemption: Preemption;
  note: string;
  /** The preemption's audit event, stored in the same transaction as the mark (and only with it). */
  audit: AuditEntry;
}

export interface TakeOverParams {
  /** Null: jobs claimed before owners were recorded. */
  from: string | null;
  to: string;
}

export interface PlaceInQueueParams {
  queue: string;
  seq: number;
  now: number;
  atMost: number;
}

export interface CountByQueueParams {
  queues: readonly string[];
  since: number;
  recentSince: number;
}

/** How far the recorded state changes can be read without missing one. */
export interface ChangeHorizon {
  /** Every change with a seq up to this one is visible now, or never will be (rolled back). */
  settled: number;
  /** Changes past `settled` are under way: they may settle without a new commit here. */
  pending: boolean;
}

/** Up to `limit` state changes with a seq above `afterSeq`. */
export interface SeqPage {
  afterSeq: number;
  limit: number;
}

export interface ChangesAfterParams extends SeqPage {
  project: string;
  uptoSeq: number;
}

export interface ArrayChildrenParams {
  parentId: string;
  /** Undefined: children in any state. */
  states?: readonly JobState[];
  afterIndex: number;
  limit: number;
}
