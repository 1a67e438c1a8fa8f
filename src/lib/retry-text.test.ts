import { describe, expect, it } from 'vitest';
import { formatSeconds, strategyText } from './retry-text';

describe('strategyText', () => {
  it('says the attempts, the backoff with its defaults, and the rules in order', () => {
    expect(
      strategyText({
        attempts: 3,
        backoff: { initial_seconds: 10, factor: 2, max_seconds: 300 },
        on_exit: [
          { exit_codes: [137, '1-5'], action: 'retry' },
          { reason: 'timeout', action: 'exit' },
          { status: '*node*', reason: 'node_lost', action: 'retry' },
        ],
      }),
    ).toBe(
      '3 attempts, backoff 10 s ×2 up to 5 min (±20% jitter); rules: exit 137, 1-5 → retry; ' +
        'timeout → exit; node lost and status "*node*" → retry',
    );
    expect(strategyText({ attempts: 2, backoff: { jitter: 0, max_seconds: 7200 } })).toBe(
      '2 attempts, backoff 10 s ×2 up to 2 h; any unsuccessful end is retried',
    );
    expect(strategyText({ attempts: 1 })).toBe('1 attempt (no retries)');
  });

  it('writes delays as people say them', () => {
    expect([5, 60, 90, 300, 3600, 5400].map(formatSeconds)).toEqual([
      '5 s',
      '1 min',
      '90 s',
      '5 min',
      '1 h',
      '90 min',
    ]);
  });
});
