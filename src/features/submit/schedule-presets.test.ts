import { describe, expect, it } from 'vitest';
import { SCHEDULE_PRESETS, pickedDayTime, presetLocal } from './schedule-presets';

const at = (local: string) => new Date(local).getTime();
const schedulePresets = (now: number) =>
  SCHEDULE_PRESETS.map((preset) => ({ label: preset.label, local: presetLocal(preset, now) }));

describe('schedulePresets', () => {
  it('offers 10 minutes, an hour, and the 02:00 still to come tonight', () => {
    expect(schedulePresets(at('2026-12-07T21:15:30'))).toEqual([
      { label: 'In 10 min', local: '2026-12-07 21:25:30' },
      { label: 'In 1 hour', local: '2026-12-07 22:15:30' },
      { label: 'Tonight 02:00', local: '2026-12-08 02:00:00' },
    ]);
  });

  it('takes the 02:00 of the same date when it is not yet past, never one gone by', () => {
    expect(schedulePresets(at('2026-12-08T00:30:00'))[2]!.local).toBe('2026-12-08 02:00:00');
    expect(schedulePresets(at('2026-12-08T02:00:00'))[2]!.local).toBe('2026-12-09 02:00:00');
  });
});

describe('pickedDayTime', () => {
  it('gives a picked day a time ten minutes ahead, never the past midnight', () => {
    expect(pickedDayTime(at('2026-12-07T09:41:27'))).toBe('09:51:00');
  });

  it('keeps today’s last minute when ten minutes ahead is already tomorrow', () => {
    expect(pickedDayTime(at('2026-12-07T23:55:00'))).toBe('23:59:00');
  });
});
