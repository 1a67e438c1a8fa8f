import { describe, expect, it } from 'vitest';
import { mergeWindows } from './incidents';
import type { Incident } from './ports';

const outage = (startedAt: number, endedAt: number | null): Incident => ({
  kind: 'engine_unreachable',
  queue: null,
  startedAt,
  endedAt,
  note: null,
});

describe('incident windows as the trends show them', () => {
  it('joins one outage seen by several instances into one window', () => {
    expect(mergeWindows([outage(1000, 5000), outage(1200, 6000), outage(9000, 9500)])).toEqual([
      outage(1000, 9500),
    ]);
  });

  it('keeps outages a minute or more apart, and kinds apart', () => {
    const pause: Incident = {
      kind: 'queue_paused',
      queue: 'p::q',
      startedAt: 2000,
      endedAt: null,
      note: 'maintenance',
    };
    expect(mergeWindows([outage(1000, 2000), outage(70_000, 80_000), pause])).toEqual([
      outage(1000, 2000),
      pause,
      outage(70_000, 80_000),
    ]);
  });

  it('is open while any of its instances’ windows is', () => {
    expect(mergeWindows([outage(1000, null), outage(1500, 3000)])).toEqual([outage(1000, null)]);
  });
});
