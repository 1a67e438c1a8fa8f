import { describe, expect, it } from 'vitest';
import type { RunUsage } from './model';
import { SIZING_MIN_RUNS, sizingHint } from './sizing';

const MiB = 2 ** 20;
const GiB = 2 ** 30;
const run = (peakMiB: number, more: Partial<RunUsage> = {}): RunUsage => ({
  peakMemoryBytes: peakMiB * MiB,
  memoryLimitBytes: GiB,
  cpuNanos: 0,
  cpus: 1,
  wallMs: null,
  ...more,
});

describe('the right-size hint of a definition', () => {
  it('takes the 95th percentile of the peaks (nearest rank) against the memory asked', () => {
    // 1 … 100 MiB in any order: the 95th of 100 figures is 95 MiB.
    const runs = Array.from({ length: 100 }, (_, i) => run(((i * 37) % 100) + 1));
    const hint = sizingHint(runs, { cpus: 1, memoryBytes: 200 * MiB });
    expect(hint.memory).toEqual({
      p95PeakBytes: 95 * MiB,
      maxPeakBytes: 100 * MiB,
      efficiency: 0.48,
    });
    expect(hint.runs).toBe(100);
  });

  it('says it as the issue does: the last 50 runs peaked at 310 MiB p95 of 1 GiB asked', () => {
    const runs = [...Array.from({ length: 47 }, () => run(200)), run(310), run(310), run(900)];
    expect(sizingHint(runs, { cpus: 2, memoryBytes: GiB }).summary).toBe(
      'the last 50 runs peaked at 310 MiB p95 of 1 GiB asked: 0.3 efficiency',
    );
  });

  it('sums CPU time against wall time × the CPUs each run was given, from runs with a wall time', () => {
    const timed = (cpuSeconds: number, wallSeconds: number, cpus: number) =>
      run(10, { cpuNanos: cpuSeconds * 1e9, wallMs: wallSeconds * 1000, cpus });
    const runs = [
      timed(1, 10, 1),
      timed(3, 10, 1),
      timed(4, 10, 2),
      timed(2, 10, 1),
      timed(0, 10, 1),
      run(10), // never started: no wall time, left out of the CPU figure
    ];
    const hint = sizingHint(runs, { cpus: 1, memoryBytes: 100 * MiB });
    // 10 s of CPU over 60 CPU-seconds given.
    expect(hint.cpu).toEqual({ efficiency: 0.17, runs: 5 });
    expect(hint.summary).toBe(
      'the last 6 runs peaked at 10 MiB p95 of 100 MiB asked: 0.1 efficiency; CPU time 0.17 of wall time × CPUs given (1 asked)',
    );
    // Fewer timed runs than the minimum: no CPU figure, the memory one stays.
    const fewTimed = sizingHint([...runs.slice(0, 4), run(10), run(10)], {
      cpus: 1,
      memoryBytes: 100 * MiB,
    });
    expect(fewTimed.cpu).toBeNull();
    expect(fewTimed.memory).not.toBeNull();
  });

  it('says "not enough runs" below the minimum, with no figures', () => {
    const runs = Array.from({ length: SIZING_MIN_RUNS - 1 }, () => run(100));
    expect(sizingHint(runs, { cpus: 1, memoryBytes: GiB })).toEqual({
      runs: 4,
      asked: { cpus: 1, memoryBytes: GiB },
      memory: null,
      cpu: null,
      summary: 'not enough runs: 4 with usage figures, 5 needed',
    });
  });
});
