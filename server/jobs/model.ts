import type { JobState } from '../../contract';

/** An env var as stored: plain for ordinary values, sealed (encrypted) for sensitive ones. */
export type StoredEnvVar = { name: string; value: string } | { name: string; sealed: string };

/** What the container will run, fixed at submit time so later config edits cannot change it. */
export interface ContainerPlan {
  image: string;
  command: string[];
  env: StoredEnvVar[];
  timeoutSeconds: number;
  stopGraceSeconds: number;
  cpus: number | null;
  memoryBytes: number | null;
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
  /** The instance that claimed the job to run it; null until claimed. */
  owner: string | null;
}

export type NewJob = Omit<
  Job,
  | 'seq'
  | 'state'
  | 'systemNote'
  | 'updatedAt'
  | 'containerId'
  | 'exitCode'
  | 'startedAt'
  | 'finishedAt'
  | 'cancelRequestedAt'
  | 'owner'
>;

/** Columns a transition may set together with the state, in the same transaction. */
export type TransitionFields = Partial<
  Pick<Job, 'containerId' | 'exitCode' | 'startedAt' | 'finishedAt' | 'cancelRequestedAt' | 'owner'>
>;

export interface StateChange {
  id: string;
  from: JobState;
  to: JobState;
  at: number;
  note: string | null;
  fields?: TransitionFields;
}

/**
 * A dispatcher asking for work: up to `limit` of the queue's oldest runnable jobs, as far as the
 * queue's and the whole service's slots allow, counted in the same transaction that takes them.
 */
export interface Claim {
  queue: string;
  limit: number;
  /** The queue's max_running and the service's. */
  queueMax: number;
  serviceMax: number;
  /** The instance that will run what it claims. */
  owner: string;
  at: number;
}

export interface Transition {
  from: JobState | null;
  to: JobState;
  at: number;
  note: string | null;
}

export interface ContainerLogs {
  text: string;
  truncated: boolean;
}

export interface JobListFilter {
  project: string;
  states?: readonly JobState[];
  queue?: string;
  namePrefix?: string;
  createdAfter?: number;
  createdBefore?: number;
  limit: number;
  /** Only jobs older than this seq: the list runs newest first. */
  beforeSeq?: number;
}
