import { SLOT_STATES, isFinalState } from '../../contract';
import { unavailable } from './errors';
import { JobSecrets } from './job-secrets';
import { showableOutput } from './job-output';
import { LOG_EPOCH, laterOf, type LogInstant } from './log-instant';
import type { ContainerLogs, Job, KeptOutput } from './model';
import {
  EngineUnavailableError,
  RuntimeError,
  type ContainerRuntime,
  type JobStore,
  type SecretBox,
  type Workload,
} from './ports';

/** What a reader of a job's output gets, and where to go on from. */
export interface FollowedLogs extends ContainerLogs {
  /** Read again after this to get only newer lines; null once the job ended (all is here). */
  next: LogInstant | null;
}

/** How much of a job's output is shown and kept. */
export interface OutputLimits {
  /** The most one answer gives of a running job's output: its newest bytes. */
  answerBytes: number;
  /** The most kept of an ended job's output: its newest bytes. */
  keptBytesPerJob: number;
  /** The most a project's kept outputs take in the store, compressed (the oldest go first). */
  storedBytesPerProject: number;
}

/**
 * A job's output: read from its workload while it runs (the newest `answerBytes` per answer),
 * the newest `keptBytesPerJob` of it kept in the store once it ended. Both go through the same
 * redaction, so that no sensitive value is shown or stored.
 */
export class JobLogs {
  constructor(
    private readonly runtime: ContainerRuntime,
    private readonly store: JobStore,
    private readonly box: SecretBox,
    private readonly limits: OutputLimits,
  ) {}

  /** The workload's output after `after`, sensitive values replaced. */
  async read(job: Job, workload: Workload, after: LogInstant | null): Promise<ContainerLogs> {
    const maxBytes = this.limits.answerBytes;
    const output = await this.runtime.readOutput(workload, { after, maxBytes });
    return showableOutput(output, new JobSecrets(job, this.box), {
      after,
      ended: workload.status === 'exited',
      maxBytes,
    });
  }

  /**
   * All of an ended workload's output that is kept, sensitive values replaced, counted;
   * `onProgress` is called while the engine sends it.
   */
  async readKept(job: Job, workload: Workload, onProgress: () => void): Promise<ContainerLogs> {
    const maxBytes = this.limits.keptBytesPerJob;
    const window = { after: null, maxBytes, whole: true, onProgress };
    const output = await this.runtime.readOutput(workload, window);
    return showableOutput(output, new JobSecrets(job, this.box), {
      after: null,
      ended: workload.status === 'exited',
      maxBytes,
    });
  }

  /** What readKept gave, to keep within the project's budget (with the job's final move). */
  kept(job: Job, output: ContainerLogs): KeptOutput {
    const budget = {
      project: job.project,
      maxStoredBytes: this.limits.storedBytesPerProject,
      savedAt: Date.now(),
    };
    return { logs: output, budget };
  }

  /**
   * The lines after `after`. A job with no workload yet (waiting, or being placed) has no
   * output: the answer is empty and says to ask again from the same place.
   */
  async follow(job: Job, after: LogInstant | null): Promise<FollowedLogs> {
    const from = after ?? LOG_EPOCH;
    if (!isFinalState(job.state)) {
      const live = SLOT_STATES.includes(job.state) ? await this.readLive(job, after) : undefined;
      if (live) return { ...live, next: laterOf(from, live.lines.at(-1)?.at ?? from) };
      // The workload can go between the look at the job and the read: ended and recorded.
      const now = await this.store.getJob(job.id);
      if (now && !isFinalState(now.state)) return { lines: [], truncated: false, next: from };
    }
    return { ...(await this.stored(job.id, after)), next: null };
  }

  private async readLive(job: Job, after: LogInstant | null): Promise<ContainerLogs | undefined> {
    try {
      const workload = await this.runtime.inspect(job.id);
      return workload ? await this.read(job, workload, after) : undefined;
    } catch (error) {
      if (error instanceof EngineUnavailableError) {
        throw unavailable('logs: the container engine is unreachable; ask again once it answers');
      }
      if (error instanceof RuntimeError) return undefined; // gone while being read
      throw error;
    }
  }

  private async stored(id: string, after: LogInstant | null): Promise<ContainerLogs> {
    const logs = await this.store.getLogs(id);
    if (!logs) return { lines: [], truncated: false };
    if (after === null || logs.text !== undefined) return logs;
    const lines = logs.lines.filter((line) => line.at > after);
    // Lines left out before the tail were older than its first one: after `after` only if it is.
    const first = logs.lines[0];
    const truncated = logs.truncated && first !== undefined && first.at > after;
    return logs.sizes ? { lines, truncated, sizes: logs.sizes } : { lines, truncated };
  }
}
