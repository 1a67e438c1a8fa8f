import type { JobState } from '../../contract';
import type {
  Claim,
  ContainerLogs,
  Job,
  JobListFilter,
  NewJob,
  StateChange,
  Transition,
} from './model';

/** Storage the domain needs; server/store implements it over SQLite and PostgreSQL. */
export interface JobStore {
  /**
   * Inserts a job in state `submitted` and pins its definition's fingerprint on first use;
   * refuses when a non-final job in the queue holds the name.
   */
  insertJob(
    job: NewJob,
    definitionFingerprint: string,
  ): Promise<{ inserted: true } | { inserted: false; nameHeldBy: string }>;
  getJob(id: string): Promise<Job | undefined>;
  /** Compare-and-set on the state, recording the transition in the same transaction. */
  moveJob(change: StateChange): Promise<Job | undefined>;
  setContainerId(id: string, containerId: string): Promise<void>;
  jobsInStates(states: readonly JobState[]): Promise<Job[]>;
  /** Pending jobs whose time has come. */
  dueJobs(now: number): Promise<Job[]>;
  nextScheduleAt(): Promise<number | undefined>;
  /** Jobs holding a slot (starting, running, cancelling), per queue. */
  activeCountsByQueue(): Promise<Map<string, number>>;
  /**
   * In one transaction: counts the slots held in the queue and in the whole service, moves the
   * oldest runnable jobs that fit to `starting` (note from `noteFor`, owner set, transitions
   * recorded) and returns them. Claims never overlap, across processes too, so no job is claimed
   * twice and no limit is exceeded whoever claims at the same time.
   */
  claimRunnable(claim: Claim, noteFor: (job: Job) => string): Promise<Job[]>;
  listJobs(filter: JobListFilter): Promise<Job[]>;
  transitions(id: string): Promise<Transition[]>;
  saveLogs(id: string, logs: ContainerLogs): Promise<void>;
  getLogs(id: string): Promise<ContainerLogs | undefined>;
}

export interface ContainerSpec {
  jobId: string;
  image: string;
  command: string[];
  /** NAME=value, sensitive values already opened: only the runtime ever sees them. */
  env: string[];
  cpus: number | null;
  memoryBytes: number | null;
  network: string;
}

export interface ManagedContainer {
  containerId: string;
  jobId: string;
  state: 'created' | 'running' | 'exited';
}

/** Why the engine could not do what was asked, in words for the job's system_note. */
export class RuntimeError extends Error {}

/** A container engine: Docker today, a cluster engine later. */
export interface ContainerRuntime {
  /** Creates (not starts) the container; throws RuntimeError. */
  create(spec: ContainerSpec): Promise<string>;
  start(containerId: string): Promise<void>;
  /** Resolves with the exit code once the container has stopped. */
  wait(containerId: string): Promise<number>;
  /** SIGTERM, then SIGKILL after the grace period. */
  stop(containerId: string, graceSeconds: number): Promise<void>;
  logs(containerId: string, maxBytes: number): Promise<ContainerLogs>;
  remove(containerId: string): Promise<void>;
  /** Every container this store created, running or not. */
  listManaged(): Promise<ManagedContainer[]>;
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
