import { describe, expect, it } from 'vitest';
import type { TrendChange } from './ports';
import { DAY_MS, HOUR_MS, countsOf } from './trends';

const change = (seq: number, at: number, ended: TrendChange['ended'] = null): TrendChange => ({
  seq,
  at,
  ended,
});

describe('countsOf', () => {
  const ended = (state: 'completed' | 'timeout' | 'cancelled', started: number | null) => ({
    queue: 'p::q',
    state,
    waitFrom: 0,
    firstStartedAt: started,
    startedAt: started,
    finishedAt: started === null ? null : started + 1000,
  });

  it('counts timeouts as failed, one row per queue, period and outcome, each period as long as it is kept', () => {
    const day = 40 * DAY_MS;
    const hour = day + 10 * HOUR_MS;
    const now = hour + HOUR_MS;
    const { outcomes, durations } = countsOf(
      [
        change(1, hour + 1, ended('completed', 100)),
        change(2, hour + 2, ended('completed', 100)),
        change(3, hour + 3, ended('timeout', 100)),
        change(4, hour + 4, ended('cancelled', null)),
        change(5, hour + 5),
        // Three days old: its day is kept, its hour is not; forty days old: neither.
        change(6, hour - 3 * DAY_MS, ended('completed', 100)),
        change(7, hour - 40 * DAY_MS, ended('completed', 100)),
      ],
      now,
    );
    expect(outcomes).toEqual([
      { queue: 'p::q', period: 'hour', start: hour, outcome: 'completed', jobs: 2 },
      { queue: 'p::q', period: 'day', start: day, outcome: 'completed', jobs: 2 },
      { queue: 'p::q', period: 'hour', start: hour, outcome: 'failed', jobs: 1 },
      { queue: 'p::q', period: 'day', start: day, outcome: 'failed', jobs: 1 },
      { queue: 'p::q', period: 'hour', start: hour, outcome: 'cancelled', jobs: 1 },
      { queue: 'p::q', period: 'day', start: day, outcome: 'cancelled', jobs: 1 },
      { queue: 'p::q', period: 'day', start: day - 3 * DAY_MS, outcome: 'completed', jobs: 1 },
    ]);
    expect(durations.map((d) => [d.period, d.start, d.measure, d.jobs])).toEqual([
      ['hour', hour, 'wait', 3],
      ['hour', hour, 'run', 3],
      ['day', day, 'wait', 3],
      ['day', day, 'run', 3],
      ['day', day - 3 * DAY_MS, 'wait', 1],
      ['day', day - 3 * DAY_MS, 'run', 1],
    ]);
  });
});
