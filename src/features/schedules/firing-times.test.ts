import { describe, expect, it } from 'vitest';
import { untilFiring } from './firing-times';

const NOW = Date.parse('2026-11-26T18:00:00.000Z');

describe('untilFiring', () => {
  it('counts down the last hour', () => {
    expect(untilFiring('2026-11-26T18:00:04.200Z', NOW)).toBe('in 0:04');
    expect(untilFiring('2026-11-26T18:59:59.000Z', NOW)).toBe('in 59:59');
  });

  it('reads further firings in words', () => {
    expect(untilFiring('2026-11-26T21:00:00.000Z', NOW)).toBe('in 3 hours');
    expect(untilFiring('2026-11-29T18:00:00.000Z', NOW)).toBe('in 3 days');
  });

  it('says a passed firing is due until the list is read again', () => {
    expect(untilFiring('2026-11-26T18:00:00.000Z', NOW)).toBe('due now');
    expect(untilFiring('2026-11-26T17:59:58.000Z', NOW)).toBe('due now');
  });
});
