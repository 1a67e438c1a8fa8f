import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { latestAtOrBefore } from './cron-times';

const at = (iso: string) => Date.parse(iso);

describe("a cron's latest time at or before a moment", () => {
  const everySecond = new Cron('* * * * * *', { paused: true });
  const hourly = new Cron('0 * * * *', { paused: true });

  it('is the time itself from its first millisecond on, not the one before', () => {
    for (const ms of [0, 1, 999]) {
      expect(latestAtOrBefore(everySecond, at('2026-11-26T10:00:05.000Z') + ms)).toEqual(
        new Date('2026-11-26T10:00:05.000Z'),
      );
    }
    expect(latestAtOrBefore(hourly, at('2026-11-26T10:00:00.000Z'))).toEqual(
      new Date('2026-11-26T10:00:00.000Z'),
    );
  });

  it('is the one before until the time comes', () => {
    expect(latestAtOrBefore(hourly, at('2026-11-26T09:59:59.999Z'))).toEqual(
      new Date('2026-11-26T09:00:00.000Z'),
    );
  });

  it('reads the expression in its time zone', () => {
    const parisTwoAm = new Cron('0 2 * * *', { timezone: 'Europe/Paris', paused: true });
    expect(latestAtOrBefore(parisTwoAm, at('2026-11-26T12:00:00.000Z'))).toEqual(
      new Date('2026-11-26T01:00:00.000Z'),
    );
  });
});
