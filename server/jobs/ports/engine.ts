import type { LogInstant } from '../log-instant';
import type { OutputSize, OutputStream, RunOptions } from '../model';
import type { Host, Resources } from '../placement';

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
  /**
   * The job's timeout. Jobdeck stops the job at it itself; an engine with time limits of its own
   * (Slurm's --time) may also be given a later one, that holds while no Jobdeck instance runs.
   */
  timeoutSeconds?: number;
  /** `none` isolates the job; any other value names a network of the engine. */
  network: string;
  runOptions: RunOptions;
  /** The host Jobdeck placed it on (EngineHosts' id): the engine runs it there. Null: anywhere. */
  host: string | null;
  /**
   * What Jobdeck counts the job as holding on `host` (its request): an engine that keeps books of
   * its own (Swarm's reservations) reserves this, so that its books agree with Jobdeck's.
   */
  resources?: Resources;
  /** The job's queue (`project::queue`): an engine with queues of its own (Slurm's partitions) maps it. */
  queue?: string;
}

/** The machines an engine runs jobs on, with what Jobdeck's jobs may use of each. */
export interface EngineHosts {
  hosts: Host[];
  /**
   * Whether these are all the hosts there will be (the local engine's one machine): a job bigger
   * than each is refused at submit, where elsewhere it waits for a bigger host to join.
   */
  fixed: boolean;
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
  /**
   * What the workload uses now, while it runs; null once it ended or when the engine does not say
   * (an engine without this method reports no usage at all: never a made-up figure).
   */
  usage?(workload: Workload): Promise<WorkloadUsage | null>;
  /**
   * Whether an out-of-memory kill always shows as `cause: 'oom_killed'`: only then may a SIGKILL
   * without it be called "not out of memory".
   */
  readonly reportsOutOfMemory?: boolean;
  /**
   * Runs a command inside the running workload (a shell for a person, a one-off for a script).
   * Absent where the engine cannot: then nobody can open one, and the service says so.
   * Throws RuntimeError when the engine refuses (the workload ended meanwhile, no such program).
   */
  exec?(workload: Workload, request: ExecRequest): Promise<ExecSession>;
  /**
   * The hosts it runs jobs on; absent (or null) where the engine does not say, and then jobs are
   * limited by slots alone. Throws EngineUnavailableError when the engine does not answer.
   */
  hosts?(): Promise<EngineHosts | null>;
}

/** A workload's use of memory and CPU at one moment, as its engine reports it. */
export interface WorkloadUsage {
  /** Memory charged to it now (the kernel's count, page cache included: what the limit holds to). */
  memoryBytes: number;
  /**
   * The most it was charged since it started, when the engine keeps that (cgroup v1's
   * max_usage); null when it does not (cgroup v2): the sampler keeps the largest sample instead.
   */
  peakMemoryBytes: number | null;
  /** CPU time used since it started, user and system, in nanoseconds. */
  cpuNanos: number;
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

/** A command to run in a running workload. */
export interface ExecRequest {
  /** The program and its arguments, as exec(3) takes them: no shell unless it names one. */
  command: string[];
  /** A terminal (one output stream, the size below, line editing) for a person; none for a script. */
  tty: boolean;
  /** The terminal's size, with `tty`. */
  size?: TerminalSize;
}

export interface TerminalSize {
  cols: number;
  rows: number;
}

/** A chunk of what the command printed: with a terminal, all of it is `stdout`. */
export interface ExecOutput {
  stream: OutputStream;
  bytes: Buffer;
}

/** One command running in a workload; its input and output go through here until it ends. */
export interface ExecSession {
  /** Called for each chunk it prints, in order. */
  onOutput(listener: (output: ExecOutput) => void): void;
  /** Bytes for its standard input. */
  write(bytes: Buffer): void;
  /** Its standard input ends (a script's stdin ran out): a `cat` then ends too. */
  endInput(): void;
  resize(size: TerminalSize): Promise<void>;
  /**
   * Resolves once it ended and its output was all delivered: with its exit code, or null when the
   * engine does not know it (the workload ended under it, the session was closed).
   */
  readonly exited: Promise<number | null>;
  /** Ends the session from this side (the person left): the engine's connection is closed. */
  close(): void;
}
