import { describe, expect, it } from 'vitest';
import { NO_QUOTAS, type QuotaSettings } from './quotas';
import { HISTORY_HOURS, shareHistory } from './share-history';
import { HOUR_MS } from './trends';

const MIN = 60_000;
/** 10:30 UTC: the current hour started half an hour ago. */
const NOW = Date.UTC(2026, 11, 7, 10, 30);
const THIS_HOUR = Date.UTC(2026, 11, 7, 10);
const queues = [
  { ref: 'a::default', project: 'a' },
  { ref: 'b::default', project: 'b' },
];
const cpus = (n: number) => ({ cpus: n, memoryBytes: 0, gpus: 0, jobs: 1 });
const capacity = { cpus: 8, memoryBytes: 0, gpus: 0, jobs: 10 };

describe('the last day by hour', () => {
  it('averages what each held over the hour so far, and its peak, from the runs', () => {
    const history = shareHistory({
      runs: [
        // 2 CPUs for the first 15 min of this hour, and 4 CPUs 10:05–10:10: a peak of 6.
        {
          queue: 'a::default',
          startedAt: THIS_HOUR - 10 * MIN,
          endedAt: THIS_HOUR + 15 * MIN,
          use: cpus(2),
        },
        {
          queue: 'a::default',
          startedAt: THIS_HOUR + 5 * MIN,
          endedAt: THIS_HOUR + 10 * MIN,
          use: cpus(4),
        },
        // Still running: 1 CPU from 10:20 on.
        { queue: 'a::default', startedAt: THIS_HOUR + 20 * MIN, endedAt: null, use: cpus(1) },
        // Ended before the day: not counted.
        {
          queue: 'a::default',
          startedAt: NOW - 30 * HOUR_MS,
          endedAt: NOW - 26 * HOUR_MS,
          use: cpus(8),
        },
      ],
      queues,
      settings: NO_QUOTAS,
      capacity,
      now: NOW,
    });
    const points = history.projects.get('a')!;
    expect(points).toHaveLength(HISTORY_HOURS);
    expect(points.at(-1)!.start).toBe(THIS_HOUR);
    expect(points[0]!.start).toBe(THIS_HOUR - 23 * HOUR_MS);
    // (2 × 15 + 4 × 5 + 1 × 10) CPU-minutes over the 30 minutes so far.
    expect(points.at(-1)!.used.average.cpus).toBeCloseTo(60 / 30, 9);
    expect(points.at(-1)!.used.peak.cpus).toBe(6);
    expect(points.at(-1)!.dominant.peak).toBe(6 / 8);
    // The hour before: 2 CPUs for its last 10 minutes.
    expect(points.at(-2)!.used.average.cpus).toBeCloseTo((2 * 10) / 60, 9);
    expect(points.at(-3)!.used.peak.cpus).toBe(0);
    expect(history.queues.get('a::default')).toEqual(points);
    expect(points.at(-1)!.borrowed).toBeUndefined();
    expect(history.projects.get('b')!.every((p) => p.used.peak.cpus === 0)).toBe(true);
  });

  it('counts borrowed and lent under the quotas, only for those with one', () => {
    const settings: QuotaSettings = {
      projects: new Map([
        ['a', { nominal: { cpus: 2 }, borrowingLimit: {}, lendingLimit: {} }],
        ['b', { nominal: { cpus: 4 }, borrowingLimit: {}, lendingLimit: {} }],
      ]),
      queues: new Map(),
    };
    const history = shareHistory({
      // a holds 3 CPUs for 10 of the 30 minutes: 1 borrowed of b's unused 4.
      runs: [
        { queue: 'a::default', startedAt: THIS_HOUR, endedAt: THIS_HOUR + 10 * MIN, use: cpus(3) },
      ],
      queues,
      settings,
      capacity,
      now: NOW,
    });
    const a = history.projects.get('a')!.at(-1)!;
    const b = history.projects.get('b')!.at(-1)!;
    expect(a.borrowed!.peak.cpus).toBe(1);
    expect(a.borrowed!.average.cpus).toBeCloseTo(10 / 30, 9);
    expect(b.lent!.peak.cpus).toBe(1);
    expect(b.borrowed!.peak.cpus).toBe(0);
    // A queue without a quota of its own has none.
    expect(history.queues.get('a::default')!.at(-1)!.borrowed).toBeUndefined();
  });
});
