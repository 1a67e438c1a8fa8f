import { describe, expect, it } from 'vitest';
import { formatIssues, retryStrategySchema } from './index';

const messageOf = (value: unknown) => {
  const parsed = retryStrategySchema.safeParse(value);
  return parsed.success ? 'accepted' : formatIssues(parsed.error.issues);
};

describe('the retry strategy schema', () => {
  it('accepts the full strategy of the API', () => {
    expect(
      messageOf({
        attempts: 3,
        backoff: { initial_seconds: 10, factor: 2, max_seconds: 300, jitter: 0.2 },
        on_exit: [
          { exit_codes: [137, '1-5'], action: 'retry' },
          { reason: 'timeout', action: 'exit' },
          { status: '*node*', action: 'retry' },
          { exit_codes: [1], reason: 'error', action: 'exit' },
        ],
      }),
    ).toBe('accepted');
    expect(messageOf({ attempts: 1 })).toBe('accepted');
  });

  it('names each fault at its path, with the reason', () => {
    expect(messageOf({})).toBe(
      'attempts: is required: the number of attempts in all, from 1 to 10',
    );
    expect(messageOf({ attempts: 11 })).toBe('attempts: must be an integer from 1 to 10');
    expect(messageOf({ attempts: 2.5 })).toBe('attempts: must be an integer from 1 to 10');
    expect(messageOf({ attempts: 2, backoff: { factor: 0.5, jitter: 2 } })).toBe(
      'backoff.factor: must be a number from 1 to 10; backoff.jitter: must be a number from 0 to 1',
    );
    expect(
      messageOf({ attempts: 2, on_exit: [{ exit_codes: [256, '5-1', 'x'], action: 'retry' }] }),
    ).toBe(
      'on_exit[0].exit_codes[0]: must be an integer from 0 to 255 or a range like "1-5"; ' +
        'on_exit[0].exit_codes[1]: must be an integer from 0 to 255 or a range like "1-5"; ' +
        'on_exit[0].exit_codes[2]: must be an integer from 0 to 255 or a range like "1-5"',
    );
    expect(messageOf({ attempts: 2, on_exit: [{ action: 'retry' }] })).toBe(
      'on_exit[0]: must have at least one matcher: exit_codes, reason or status',
    );
    expect(messageOf({ attempts: 2, on_exit: [{ reason: 'sunspots', action: 'again' }] })).toBe(
      'on_exit[0].reason: must be one of timeout, error, node_lost, oom_killed; on_exit[0].action: must be "retry" or "exit"',
    );
    expect(messageOf({ attempts: 2, on_exit: [{ status: 'x' }] })).toBe(
      'on_exit[0].action: is required ("retry" or "exit")',
    );
    expect(
      messageOf({ attempts: 2, on_exit: Array(21).fill({ reason: 'error', action: 'exit' }) }),
    ).toBe('on_exit: must have at most 20 rules');
    expect(messageOf({ attempts: 2, tries: 3 })).toBe('tries: is not a field of this payload');
    expect(messageOf({ attempts: 2, out_of_memory: { factor: 1 } })).toBe(
      'out_of_memory.factor: must be a number above 1, at most 10; out_of_memory.max_memory_bytes: is required: the most memory an attempt is raised to, in bytes',
    );
    expect(messageOf({ attempts: 2, out_of_memory: { max_memory_bytes: 1024 } })).toBe(
      'out_of_memory.max_memory_bytes: must be an integer of bytes from 6291456 (6 MiB) to 1099511627776 (1 TiB)',
    );
    expect(
      messageOf({ attempts: 2, out_of_memory: { factor: 2, max_memory_bytes: 2 ** 30 } }),
    ).toBe('accepted');
  });
});
