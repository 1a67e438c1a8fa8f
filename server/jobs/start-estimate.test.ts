import { describe, expect, it } from 'vitest';
import { estimateStart } from './start-estimate';

const runs = (jobs: number, p50Ms: number | null) => ({ jobs, p50Ms, p95Ms: p50Ms });

describe('estimateStart', () => {
  it('counts a median run per round of slots up to and including its own', () => {
    expect(estimateStart(1, 2, runs(5, 1000.4))).toEqual({
      inMs: 1000,
      place: 1,
      slots: 2,
      runP50Ms: 1000,
      runs: 5,
    });
    expect(estimateStart(3, 2, runs(5, 1000))?.inMs).toBe(2000);
    expect(estimateStart(4, 2, runs(5, 1000))?.inMs).toBe(2000);
  });

  it('gives none from fewer than 3 runs or without slots', () => {
    expect(estimateStart(1, 1, runs(2, 1000))).toBeUndefined();
    expect(estimateStart(1, 1, runs(0, null))).toBeUndefined();
    expect(estimateStart(1, 0, runs(5, 1000))).toBeUndefined();
  });
});
