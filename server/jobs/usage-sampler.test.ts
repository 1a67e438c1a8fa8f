import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContainerRuntime, JobStore, Logger, Workload, WorkloadUsage } from './ports';
import { UsageSampler } from './usage-sampler';

const workload = (jobId: string): Workload => ({
  id: `c-${jobId}`,
  jobId,
  attempt: 1,
  status: 'running',
  exitCode: null,
  startedAt: 0,
  finishedAt: null,
  node: null,
  message: null,
});

const USAGE: WorkloadUsage = { memoryBytes: 1024, peakMemoryBytes: null, cpuNanos: 1e6 };
const LIMITS = { memoryBytes: 1 << 20, cpus: 1 };

describe('UsageSampler', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the other workloads while one answers slowly, not after it', async () => {
    vi.useFakeTimers();
    let answerSlow: (usage: WorkloadUsage) => void = () => undefined;
    const runtime = {
      usage: (asked: Workload) =>
        asked.jobId === 'slow'
          ? new Promise<WorkloadUsage>((resolve) => (answerSlow = resolve))
          : Promise.resolve(USAGE),
    } as unknown as ContainerRuntime;
    const sampled: string[] = [];
    const store = {
      recordUsage: async (jobId: string) => void sampled.push(jobId),
    } as unknown as JobStore;
    const sampler = new UsageSampler(runtime, store, {} as Logger, 100);
    try {
      for (const jobId of ['slow', 'a', 'b', 'c']) {
        sampler.follow(jobId, 1, workload(jobId), LIMITS);
      }
      await vi.advanceTimersByTimeAsync(100);
      // One at a time, the three waited behind the slow one's answer.
      expect(sampled.sort()).toEqual(['a', 'b', 'c']);
      answerSlow(USAGE);
      await vi.advanceTimersByTimeAsync(0);
      expect(sampled).toContain('slow');
    } finally {
      sampler.stop();
    }
  });
});
