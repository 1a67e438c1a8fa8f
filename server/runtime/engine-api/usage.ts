import type { WorkloadUsage } from '../../jobs/ports';

/** The part of the Engine API's `/containers/{id}/stats` answer that usage is read from. */
export interface EngineStats {
  memory_stats?: { usage?: number; max_usage?: number };
  cpu_stats?: { cpu_usage?: { total_usage?: number } };
}

/**
 * A container's usage from one stats answer (`stream=false&one-shot=true`). Memory is the
 * cgroup's charge, page cache included, as the limit counts it. The peak is the engine's own on
 * cgroup v1 (`max_usage`, the kernel's max_usage_in_bytes: exact); cgroup v2 has no such field
 * in the answer (its memory.peak file is not passed on), so there it is null and the sampler
 * keeps the largest sample. CPU is `total_usage`, nanoseconds since the start, on both. A
 * container that is not running answers with empty figures: null, never zeros taken for a
 * measurement.
 */
export function usageOfStats(stats: EngineStats): WorkloadUsage | null {
  const memory = stats.memory_stats?.usage;
  const cpu = stats.cpu_stats?.cpu_usage?.total_usage;
  if (typeof memory !== 'number' || typeof cpu !== 'number') return null;
  const peak = stats.memory_stats?.max_usage;
  return {
    memoryBytes: memory,
    peakMemoryBytes: typeof peak === 'number' && peak > 0 ? peak : null,
    cpuNanos: cpu,
  };
}
