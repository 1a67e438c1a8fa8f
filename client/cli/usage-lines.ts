import type { components } from '../src';

type Usage = NonNullable<components['schemas']['JobExecution']['usage']>;

const MiB = 2 ** 20;
export const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const share = (ratio: number) => `${Math.round(ratio * 100)}%`;

/**
 * What the job's attempt used, as `get` prints it: the peak against the memory limit, the CPU
 * time against the wall time × the CPUs it was given (seff's efficiencies).
 */
export function usageLines(usage: Usage | undefined): [string, string][] {
  if (!usage) return [];
  const peak = usage.peak_memory_exact ? 'peak' : 'sampled peak';
  const lines: [string, string][] = [
    [
      'memory',
      `${mib(usage.peak_memory_bytes)} ${peak} of ${mib(usage.memory_limit_bytes)} (${share(usage.memory_efficiency)})`,
    ],
  ];
  const wall =
    usage.wall_ms === null || usage.cpu_efficiency === null
      ? ''
      : ` in ${seconds(usage.wall_ms)} on ${usage.cpus} CPU (${share(usage.cpu_efficiency)})`;
  lines.push(['cpu time', `${seconds(usage.cpu_ms)}${wall}`]);
  return lines;
}
