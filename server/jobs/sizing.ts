import type { RunUsage } from './model';
import { formatBytes } from './placement';

/** The most recent runs a hint reads, among how many of the definition's newest jobs. */
export const SIZING_RUNS = 50;
export const SIZING_SCAN = 500;
/** Fewer runs with figures than this say too little to size a definition by. */
export const SIZING_MIN_RUNS = 5;

/** What a definition's recent runs used against what it asks for (as Slurm's seff, summed up). */
export interface SizingHint {
  /** The ended attempts with usage figures it is made from, newest first (at most SIZING_RUNS). */
  runs: number;
  /** What a job of the definition is given now: its limits, raised to its resources' request. */
  asked: { cpus: number; memoryBytes: number };
  /** Null below SIZING_MIN_RUNS. */
  memory: { p95PeakBytes: number; maxPeakBytes: number; efficiency: number } | null;
  /**
   * CPU time against wall time × the CPUs each run was given, over the runs that have a wall
   * time; null below SIZING_MIN_RUNS of those.
   */
  cpu: { efficiency: number; runs: number } | null;
  /** The hint in one sentence, as the console and `jobdeck` show it. */
  summary: string;
}

const twoPlaces = (n: number) => Math.round(n * 100) / 100;

/** The nearest-rank percentile: the smallest figure at least `share` of them are at or below. */
function percentile(figures: number[], share: number): number {
  const sorted = [...figures].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]!;
}

export function sizingHint(
  runs: readonly RunUsage[],
  asked: { cpus: number; memoryBytes: number },
): SizingHint {
  if (runs.length < SIZING_MIN_RUNS) {
    return {
      runs: runs.length,
      asked,
      memory: null,
      cpu: null,
      summary: `not enough runs: ${runs.length} with usage figures, ${SIZING_MIN_RUNS} needed`,
    };
  }
  const peaks = runs.map((run) => run.peakMemoryBytes);
  const p95PeakBytes = percentile(peaks, 0.95);
  const memory = {
    p95PeakBytes,
    maxPeakBytes: Math.max(...peaks),
    efficiency: twoPlaces(p95PeakBytes / asked.memoryBytes),
  };
  const timed = runs.filter((run) => run.wallMs !== null && run.wallMs > 0);
  const cpuMs = timed.reduce((sum, run) => sum + run.cpuNanos / 1e6, 0);
  const givenMs = timed.reduce((sum, run) => sum + run.wallMs! * run.cpus, 0);
  const cpu =
    timed.length >= SIZING_MIN_RUNS
      ? { efficiency: twoPlaces(cpuMs / givenMs), runs: timed.length }
      : null;
  const cpuWords = cpu
    ? `; CPU time ${cpu.efficiency} of wall time × CPUs given (${asked.cpus} asked)`
    : '';
  return {
    runs: runs.length,
    asked,
    memory,
    cpu,
    summary: `the last ${runs.length} runs peaked at ${formatBytes(p95PeakBytes)} p95 of ${formatBytes(asked.memoryBytes)} asked: ${memory.efficiency} efficiency${cpuWords}`,
  };
}
