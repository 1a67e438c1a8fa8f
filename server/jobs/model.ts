import type { DependencyType, JobState, Labels, RetryStrategy } from '../../contract';
import type { Resources } from './placement';

/** An env var as stored: plain for ordinary values, sealed (encrypted) for sensitive ones. */
export type StoredEnvVar = { name: string; value: string } | { name: string; sealed: string };

/** What the container will run, fixed at submit time so later config edits cannot change it. */
export interface ContainerPlan {
  image: string;
  /** How it is tried again after an unsuccessful attempt; null: one attempt. */
  retry: RetryStrategy | null;
  command: string[];
  env: StoredEnvVar[];
  timeoutSeconds: number;
  stopGraceSeconds: number;
  cpus: number | null;
  memoryBytes: number | null;
  /** What it asks for to be placed; null for a job stored before requests were kept. */
  resources: Resources | null;
  network: string;
  runOptions: RunOptions;
}

/** How a job runs beyond its command and limits: each engine applies what it can. */
export interface RunOptions {
  /** `uid[:gid]` or a user name of the image; null: the image's own user. */
  user: string | null;
  readOnlyRootfs: boolean;
  /** Placement constraints for engines with several machines (`node.labels.gpu==true`). */
  placement: string[];
}

export const DEFAULT_RUN_OPTIONS: RunOptions = { user: null, readOnlyRootfs: false, placement: [] };

export interface Job extends ContainerPlan {
  id: string;
  seq: number;
  project: string;
  queue: string;
  definition: string;
  name: string;
  state: JobState;
  systemNote: string | null;
  scheduleAt: number | null;
  createdAt: number;
  updatedAt: number | null;
  containerId: string | null;
  exitCode: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  cancelRequestedAt: number | null;
  /** Who asked for its cancel (an actor: `key:<id>`, `user:<identity>`); null: nobody, or unknown. */
  cancelRequestedBy: string | null;
  /** Who submitted it (`key:<id>`, `user:<identity>`, `schedule:<ref>`); null in older jobs. */
  submittedBy: string | null;
  /** The instance that claimed the job to run it; null until claimed. */
  owner: string | null;
  /**
   * The fencing token of that ownership: raised by every claim and takeover, so a move decided
   * under an ownership since lost (even one given back later) is refused (OwnerFence).
   */
  ownerEpoch: number;
  /** The machine it ran on, when the engine has several and said which; set as it starts running. */
  node: string | null;
  /** The host Jobdeck placed it on as it claimed it (placement.ts); null: not placed. */
  host: string | null;
  /** Why a runnable job fits no host now, as its last claim found; null: it fits (or no claim tried). */
  placementNote: string | null;
  /** The attempt it is on, from 1. */
  attempt: number;
  /** A runnable job waiting out its backoff is not started before this time. */
  notBefore: number | null;
  /** A running job being stopped to give back quota it borrowed (preemption.ts); null: not. */
  preemption: Preemption | null;
  /** How many of its attempts were preempted: they count against none of its retries. */
  preemptions: number;
  /** Jobs it waits for (empty: none): it stays pending until each has ended as its type asks. */
  dependsOn: JobDependency[];
  /** Its part in an array job; null for a job of its own. */
  array: ArrayRole | null;
  /** What a person labelled it with, to find it later ({}: none). */
  labels: Labels;
}

/** Why and since when a running job is being stopped: a lender takes back what it lent. */
export interface Preemption {
  at: number;
  /** "team-a reclaimed 1 job it lent" */
  reason: string;
}

/**
 * A parent runs nothing: its state sums up its children's. A child runs its parent's container
 * with its index in the environment.
 */
export type ArrayRole = ArrayParentRole | ArrayChildRole;
export interface ArrayParentRole {
  /** The array's size: its children's JOBDECK_ARRAY_SIZE, and their indexes are below it. */
  size: number;
  links?: ArrayLinks;
  /** Only these indexes have a child (array.indexes, ascending); absent: each of 0…size−1. */
  indexes?: readonly number[];
}
export interface ArrayChildRole {
  parentId: string;
  index: number;
}

/** What each child of an array waits for, beside what the parent waits for. */
export interface ArrayLinks {
  /** Child i waits for child i of this array (same size) to complete. */
  nToN?: string;
  /** Child i waits for child i − 1 to complete. */
  sequential?: boolean;
}

/** The job's role as an array's parent; null for a child or a job of no array. */
export const parentRole = (job: Pick<Job, 'array'>): ArrayParentRole | null =>
  job.array !== null && 'size' in job.array ? job.array : null;

/** The job's role as an array's child; null for a parent or a job of no array. */
export const childRole = (job: Pick<Job, 'array'>): ArrayChildRole | null =>
  job.array !== null && 'parentId' in job.array ? job.array : null;

export const isArrayParent = (job: Pick<Job, 'array'>): boolean => parentRole(job) !== null;

/** A job another waits for, and what its end must be. */
export interface JobDependency {
  jobId: string;
  type: DependencyType;
}

/** The state the job named by a dependency ended in, as recorded on the dependency. */
export interface DependencyEnd {
  /** The job that waits. */
  jobId: string;
  /** The job it waits for. */
  dependsOn: string;
  state: JobState;
}

/** What a dependency needs to know of the job it names. */
export interface JobSummary {
  id: string;
  project: string;
  name: string;
  state: JobState;
}

/** A job that waits for another, with the type of that dependency. */
export interface Dependent extends JobSummary {
  type: DependencyType;
}

/** A job as submitted: what runs it (TransitionFields) and its state come later. */
export type NewJob = Omit<
  Job,
  'seq' | 'state' | 'systemNote' | 'updatedAt' | 'ownerEpoch' | 'placementNote' | keyof RunFields
>;

/**
 * A Job Submit's Idempotency-Key, stored in the transaction of the job it makes, in that job's
 * project; it holds until expiresAt.
 */
export interface IdempotencyKey {
  key: string;
  /** The request's keyed digest (SecretBox.digest): a retry must bring the same. */
  digest: string;
  expiresAt: number;
}

/** The job a stored key made, and the digest of the request that made it. */
export interface HeldKey {
  jobId: string;
  digest: string;
}

/** Where a new job goes from `submitted` as it is stored: runnable, or pending until schedule_at. */
export interface Admission {
  to: 'runnable' | 'pending';
  note: string | null;
  /**
   * Job Submit's: the end of each job its dependencies name that had ended as the submit checked
   * them, by id. The edges are stored with these ends (a final state never changes), so a job
   * retention deletes between the check and the insert is still judged by its end; a job named
   * without one must still be stored at the insert, or nothing is (InsertOutcome).
   */
  dependencyEnds?: ReadonlyMap<string, JobState>;
}

/** Columns a transition may set together with the state, in the same transaction. */
export type TransitionFields = RunFields &
  // Raised for the next attempt after an out-of-memory kill (retry.out_of_memory).
  Partial<Pick<Job, 'memoryBytes' | 'resources'>>;

/** The columns of a job's run: none of them is set as it is submitted. */
type RunFields = Partial<
  Pick<
    Job,
    | 'containerId'
    | 'exitCode'
    | 'startedAt'
    | 'finishedAt'
    | 'cancelRequestedAt'
    | 'cancelRequestedBy'
    | 'owner'
    | 'node'
    | 'host'
    | 'attempt'
    | 'notBefore'
    | 'preemption'
    | 'preemptions'
  >
>;

export interface StateChange {
  id: string;
  from: JobState;
  to: JobState;
  at: number;
  note: string | null;
  fields?: TransitionFields;
  /** An attempt that ended with this change, recorded in the same transaction. */
  endedAttempt?: AttemptRecord;
  /** The ended job's output, kept in the same transaction, within its project's budget. */
  keptOutput?: KeptOutput;
  /**
   * Moves the job only while this ownership holds: one taken over while alive (a late heartbeat)
   * changes nothing of the jobs it lost; the store throws JobLostError then.
   */
  fence?: OwnerFence;
  /** The instance making the move, recorded on its transition. */
  by?: string;
  /** A claim's: the dispatcher lease's epoch the store fenced it by, recorded on its transition. */
  leaseEpoch?: number;
}

/** An ownership as its owner knows it: the instance and the epoch of its claim or takeover. */
export interface OwnerFence {
  owner: string;
  epoch: number;
}

/**
 * A move refused because the job's owner or its epoch is no longer the fence's: the instance has
 * lost the job to another (a takeover) and must leave it, its workload included, to that one.
 */
export class JobLostError extends Error {
  constructor(
    readonly jobId: string,
    /** Who owns it now, as the store said. */
    readonly ownedBy: string | null,
  ) {
    super(`job ${jobId} is owned by ${ownedBy ?? 'nobody'} now`);
  }
}

/** An ended job's output and the budget it is kept within. */
export interface KeptOutput {
  logs: ContainerLogs;
  budget: OutputBudget;
}

/** Whose budget a job's kept output counts against, and since when it is kept. */
export interface OutputBudget {
  project: string;
  /** The most the project's kept outputs may take in the store, as stored (compressed). */
  maxStoredBytes: number;
  savedAt: number;
}

/** How one attempt of a job ended. */
export interface AttemptRecord {
  attempt: number;
  /** The state it ended the attempt in (failed, timeout, error, completed, cancelled). */
  state: JobState;
  exitCode: number | null;
  /** exit, timeout, error, node_lost, oom_killed, completed or cancelled. */
  reason: string;
  note: string | null;
  node: string | null;
  startedAt: number | null;
  finishedAt: number;
  /** Whether another attempt follows it. */
  retried: boolean;
  /** The memory limit it ran with; null: it never ran, or it was recorded before this was kept. */
  memoryBytes: number | null;
  /** The newest part of its output, kept when another attempt follows (the last one's is the job's). */
  output?: ContainerLogs;
}

/** What one attempt used, from the samples taken while it ran (usage-sampler.ts). */
export interface AttemptUsage {
  attempt: number;
  /** The largest memory figure seen: the engine's own peak where it keeps one, else a sample. */
  peakMemoryBytes: number;
  /** Whether the peak is the engine's own count (exact up to the last sample), not a sample. */
  peakExact: boolean;
  /** CPU time used, as of the last sample. */
  cpuNanos: number;
  /** What it was given: the limits of its container. */
  memoryLimitBytes: number;
  cpus: number;
  samples: number;
  sampledAt: number;
}

/** What one ended attempt of a definition used, against what it was given (the right-size hint). */
export interface RunUsage {
  peakMemoryBytes: number;
  memoryLimitBytes: number;
  cpuNanos: number;
  cpus: number;
  /** How long it ran; null: it never started. */
  wallMs: number | null;
}

export type { Claim, ClaimPlacement } from './claim';

export interface Transition {
  from: JobState | null;
  to: JobState;
  at: number;
  note: string | null;
}

/** One line of a job's output, as shown and stored: sensitive values already replaced. */
export interface OutputLine {
  stream: OutputStream;
  /** When the engine read it (a LogInstant: compares as a string). */
  at: string;
  /** As printed, with its newline when the line had ended. */
  text: string;
}

export type OutputStream = 'stdout' | 'stderr';

/** How much output: lines as the engine recorded them (a piece of an over-long line is one). */
export interface OutputSize {
  lines: number;
  bytes: number;
}

export interface ContainerLogs {
  /** Oldest first, both streams in the order the engine read them. */
  lines: OutputLine[];
  /** Whether earlier output was left out. */
  truncated: boolean;
  /** Output stored before lines were kept (then `lines` is empty): the text as it was kept. */
  text?: string;
  /**
   * For the output kept of an ended job: what was kept (text with secrets replaced) of what the
   * engine held. Whatever part of it an answer gives, these are of the whole.
   */
  sizes?: { kept: OutputSize; printed: OutputSize };
}

/** A state change as the event stream delivers it: its sequence number, and the job now. */
export interface JobChange {
  seq: number;
  transition: Transition;
  job: Job;
}

/** Jobs of a queue in one state: for a final state, those that finished since a given time. */
export interface QueueStateCount {
  queue: string;
  state: JobState;
  count: number;
  /** Final states: how many of `count` finished since the more recent time; else `count`. */
  recent: number;
}
