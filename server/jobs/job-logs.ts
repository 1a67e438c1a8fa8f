import { SLOT_STATES, isFinalState } from '../../contract';
import { unavailable } from './errors';
import { JobSecrets } from './job-secrets';
import { showableOutput } from './job-output';
import { LOG_EPOCH, laterOf, type LogInstant } from './log-instant';
import type { ContainerLogs, Job } from './model';
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

/**
 * A job's output, at most `maxBytes` of it: read from its workload while it runs, the tail kept
 * in the store once it ended. The runner keeps that tail through the same reading.
 */
export class JobLogs {
  constructor(
    private readonly runtime: ContainerRuntime,
    private readonly store: JobStore,
    private readonly box: SecretBox,
    private readonly maxBytes: number,
  ) {}

  /** The workload's output after `after`, sensitive values replaced. */
  async read(job: Job, workload: Workload, after: LogInstant | null): Promise<ContainerLogs> {
    const output = await this.runtime.readOutput(workload, { after, maxBytes: this.maxBytes });
    return showableOutput(output, new JobSecrets(job, this.box), {
      after,
      ended: workload.status === 'exited',
      maxBytes: this.maxBytes,
    });
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
    return { lines, truncated: logs.truncated && first !== undefined && first.at > after };
  }
}
