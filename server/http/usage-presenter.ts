import type { AttemptUsageAnswer } from '../../contract';
import type { AttemptUsage } from '../jobs/model';

const ratio = (part: number, whole: number) => Math.round((part / whole) * 1000) / 1000;

/**
 * An attempt's usage on the wire, with its efficiencies as seff gives them: the peak against
 * the memory limit, and CPU time against the wall time × the CPUs it was given.
 *
 * @param ran when the attempt started and ended (null: it has not, or never started)
 */
export function toAttemptUsage(
  usage: AttemptUsage,
  ran: { startedAt: number | null; finishedAt: number | null },
  now = Date.now(),
): AttemptUsageAnswer {
  const wallMs =
    ran.startedAt === null ? null : Math.max(0, (ran.finishedAt ?? now) - ran.startedAt);
  const cpuMs = Math.round(usage.cpuNanos / 1e6);
  return {
    attempt: usage.attempt,
    peak_memory_bytes: usage.peakMemoryBytes,
    peak_memory_exact: usage.peakExact,
    memory_limit_bytes: usage.memoryLimitBytes,
    memory_efficiency: ratio(usage.peakMemoryBytes, usage.memoryLimitBytes),
    cpu_ms: cpuMs,
    cpus: usage.cpus,
    wall_ms: wallMs,
    cpu_efficiency: wallMs ? ratio(cpuMs, wallMs * usage.cpus) : null,
    samples: usage.samples,
    sampled_at: new Date(usage.sampledAt).toISOString(),
  };
}
