import type { AttemptUsage } from './model';
import type { MemoryAtEnd } from './outcome';
import {
  EngineUnavailableError,
  type ContainerRuntime,
  type JobStore,
  type Logger,
  type Workload,
  type WorkloadUsage,
} from './ports';

/**
 * Workloads read side by side in a tick. One at a time, a slow answer held up every other job's:
 * the Docker Engine answers a container's stats up to 0.8 s late in its first seconds, so 50 jobs
 * started together were each read about once in 40 s whatever the interval.
 */
const SAMPLED_AT_ONCE = 8;

/** What an attempt was given, kept with its usage so that each attempt is measured against its own. */
export interface AttemptLimits {
  memoryBytes: number;
  cpus: number;
}

interface Sampled {
  attempt: number;
  workload: Workload;
  limits: AttemptLimits;
}

/**
 * Samples what each running workload of this instance uses: one engine request per workload per
 * interval (SAMPLED_AT_ONCE side by side; a tick still under way skips the next), and one final read as the
 * attempt ends, before the workload is removed. Every sample is stored (the store keeps the
 * peak), so a restart loses at most one interval of it. An engine without `usage` is never asked
 * and its jobs report none.
 */
export class UsageSampler {
  private readonly sampled = new Map<string, Sampled>();
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;

  constructor(
    private readonly runtime: ContainerRuntime,
    private readonly store: JobStore,
    private readonly logger: Logger,
    /** 0: no sampling at all. */
    private readonly intervalMs: number,
  ) {}

  private get enabled(): boolean {
    return this.intervalMs > 0 && this.runtime.usage !== undefined;
  }

  /** Samples the workload of this attempt from the next tick on, until it ends or `finish`. */
  follow(jobId: string, attempt: number, workload: Workload, limits: AttemptLimits): void {
    if (!this.enabled) return;
    this.sampled.set(jobId, { attempt, workload, limits });
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  /**
   * The attempt's last read, then what its outcome's note may say of its memory: its limit, and
   * for an out-of-memory kill (the only note that names it) its peak as stored (null when nothing
   * was sampled: an engine that reports none, or an attempt shorter than one interval on an
   * engine that keeps no figures of an ended workload; null too for any other end).
   */
  async finish(
    jobId: string,
    attempt: number,
    workload: Workload,
    limits: AttemptLimits,
  ): Promise<MemoryAtEnd> {
    const memory = {
      limitBytes: limits.memoryBytes,
      peakBytes: null,
      engineReportsOom: this.runtime.reportsOutOfMemory === true,
    };
    if (!this.enabled) return memory;
    this.sampled.delete(jobId);
    await this.sample(jobId, { attempt, workload, limits });
    // Not read back for every end: a read of the store a job, for a figure no other note uses.
    if (workload.cause !== 'oom_killed') return memory;
    const kept = await this.store.usage(jobId).catch(() => []);
    const peak = kept.find((usage) => usage.attempt === attempt)?.peakMemoryBytes;
    return { ...memory, peakBytes: peak ?? null };
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.sampled.clear();
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const due = [...this.sampled];
      for (let from = 0; from < due.length; from += SAMPLED_AT_ONCE) {
        await Promise.all(
          due.slice(from, from + SAMPLED_AT_ONCE).map(async ([jobId, sampled]) => {
            // An ended or vanished workload reports nothing: its runner's settle takes it on.
            if (!(await this.sample(jobId, sampled))) this.sampled.delete(jobId);
          }),
        );
      }
    } finally {
      this.ticking = false;
    }
  }

  /** One read, stored; whether the engine reported anything. Never throws. */
  private async sample(jobId: string, { attempt, workload, limits }: Sampled): Promise<boolean> {
    try {
      const usage = await this.runtime.usage?.(workload);
      if (!usage) return false;
      await this.store.recordUsage(jobId, {
        attempt,
        ...peakOf(usage),
        cpuNanos: usage.cpuNanos,
        memoryLimitBytes: limits.memoryBytes,
        cpus: limits.cpus,
        sampledAt: Date.now(),
      });
      return true;
    } catch (error) {
      // A missed sample loses a little precision, never a job: the next tick tries again. An
      // engine away is the health check's to report, not once per job per interval.
      if (!(error instanceof EngineUnavailableError))
        this.logger.warn({ jobId, err: error }, 'could not sample a job’s usage');
      return true;
    }
  }
}

function peakOf(usage: WorkloadUsage): Pick<AttemptUsage, 'peakMemoryBytes' | 'peakExact'> {
  return usage.peakMemoryBytes === null
    ? { peakMemoryBytes: usage.memoryBytes, peakExact: false }
    : { peakMemoryBytes: Math.max(usage.peakMemoryBytes, usage.memoryBytes), peakExact: true };
}
