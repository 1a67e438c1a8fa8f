import { describe, expect, it } from 'vitest';
import type { RetryStrategy } from '../../contract';
import { notes } from './notes';
import { memoryRaise } from './memory-retry';
import { backoffMs, decideRetry, endingInWords, ruleMatches, type Ending } from './retry';

const GiB = 2 ** 30;
const exit = (exitCode: number): Ending => ({ reason: 'exit', exitCode, status: null });

describe('retry decisions', () => {
  it('retries an unsuccessful end while attempts remain, and never past them', () => {
    const retry: RetryStrategy = { attempts: 3 };
    expect(decideRetry({ retry, attempt: 1 }, exit(1), 0)).toMatchObject({ retry: true });
    expect(decideRetry({ retry, attempt: 2 }, exit(1), 0)).toMatchObject({ retry: true });
    expect(decideRetry({ retry, attempt: 3 }, exit(1), 0)).toEqual({ retry: false });
    expect(decideRetry({ retry: null, attempt: 1 }, exit(1), 0)).toEqual({ retry: false });
  });

  it('lets the first matching rule decide', () => {
    const retry: RetryStrategy = {
      attempts: 5,
      on_exit: [
        { exit_codes: [137], action: 'retry' },
        { exit_codes: ['1-5'], action: 'exit' },
        { reason: 'timeout', action: 'exit' },
        { status: '*node * was drained*', action: 'retry' },
      ],
    };
    const decide = (ending: Ending) => decideRetry({ retry, attempt: 1 }, ending, 0).retry;
    expect(decide(exit(137))).toBe(true);
    expect(decide(exit(3))).toBe(false);
    expect(decide(exit(6))).toBe(true); // no rule: retried
    expect(decide({ reason: 'timeout', exitCode: 143, status: null })).toBe(false);
    const drained = 'the swarm stopped it because its node n2 was drained; submit it again';
    expect(decide({ reason: 'node_lost', exitCode: null, status: drained })).toBe(true);
  });

  it('matches every matcher of a rule, globs whole and literal but for * and ?', () => {
    const ending: Ending = { reason: 'error', exitCode: null, status: 'image a.b is missing' };
    expect(ruleMatches({ reason: 'error', status: 'image ?.? is *', action: 'exit' }, ending)).toBe(
      true,
    );
    expect(ruleMatches({ status: 'image a.b', action: 'exit' }, ending)).toBe(false);
    expect(ruleMatches({ status: 'image a+b is missing', action: 'exit' }, ending)).toBe(false);
    expect(ruleMatches({ reason: 'error', exit_codes: [1], action: 'exit' }, ending)).toBe(false);
  });

  it('waits initial × factor^n, at most max_seconds, less up to its jitter', () => {
    const strategy: RetryStrategy = {
      attempts: 10,
      backoff: { initial_seconds: 10, factor: 2, max_seconds: 60, jitter: 0.5 },
    };
    expect([2, 3, 4, 5].map((next) => backoffMs(strategy, next, 0))).toEqual([
      10_000, 20_000, 40_000, 60_000,
    ]);
    expect(backoffMs(strategy, 2, 0.999)).toBeGreaterThan(5_000);
    expect(backoffMs(strategy, 2, 0.5)).toBe(7_500);
  });
});

describe('retries with more memory after an out-of-memory kill (retry.out_of_memory)', () => {
  const MiB = 2 ** 20;
  const oom: Ending = { reason: 'oom_killed', exitCode: 137, status: 'killed: out of memory' };
  const retry: RetryStrategy = {
    attempts: 4,
    out_of_memory: { factor: 2, max_memory_bytes: 100 * MiB },
  };

  it('raises the memory by its factor, up to the ceiling and no further', () => {
    expect(decideRetry({ retry, attempt: 1 }, oom, 0, 16 * MiB)).toMatchObject({
      retry: true,
      memoryBytes: 32 * MiB,
    });
    expect(decideRetry({ retry, attempt: 2 }, oom, 0, 64 * MiB)).toMatchObject({
      memoryBytes: 100 * MiB,
    });
    expect(decideRetry({ retry, attempt: 3 }, oom, 0, 100 * MiB)).toEqual({
      retry: false,
      because: notes.memoryCeilingReached(100 * MiB),
    });
  });

  it('rounds up to a whole MiB, and takes 2 when the factor is left out', () => {
    expect(
      memoryRaise({ out_of_memory: { factor: 1.5, max_memory_bytes: GiB } }, 10 * MiB + 1),
    ).toEqual({
      to: 16 * MiB,
    });
    expect(memoryRaise({ out_of_memory: { max_memory_bytes: GiB } }, 300 * MiB)).toEqual({
      to: 600 * MiB,
    });
    expect(memoryRaise({}, 300 * MiB)).toBeUndefined();
  });

  it('keeps the memory for any other end, and an exit rule or the last attempt still wins', () => {
    const decided = decideRetry({ retry, attempt: 1 }, exit(137), 0, 16 * MiB);
    expect(decided).toMatchObject({ retry: true });
    expect(decided).not.toHaveProperty('memoryBytes');
    expect(decideRetry({ retry, attempt: 4 }, oom, 0, 16 * MiB)).toEqual({ retry: false });
    const exits: RetryStrategy = { ...retry, on_exit: [{ reason: 'oom_killed', action: 'exit' }] };
    expect(decideRetry({ retry: exits, attempt: 1 }, oom, 0, 16 * MiB)).toEqual({ retry: false });
    // Without a rule, an out-of-memory end is retried as before, with the same memory.
    const plain = decideRetry({ retry: { attempts: 2 }, attempt: 1 }, oom, 0, 16 * MiB);
    expect(plain).toMatchObject({ retry: true });
    expect(plain).not.toHaveProperty('memoryBytes');
  });
});

describe('how an attempt ended, for the next one’s note', () => {
  const MiB = 2 ** 20;

  it('tells a SIGKILL for memory from one for another reason, as the attempt’s note did', () => {
    const oom = notes.outOfMemory(16 * MiB, 15.2 * MiB);
    expect(endingInWords({ reason: 'oom_killed', exitCode: 137, status: oom })).toBe(
      'was killed: out of memory at its 16 MiB limit (peak 15.2 MiB)',
    );
    const notOom = notes.killedNotOutOfMemory(137);
    expect(endingInWords({ reason: 'exit', exitCode: 137, status: notOom })).toBe(
      'was killed by signal 9 (not out of memory); exit code 137',
    );
  });

  it('still asks where the engine cannot tell (the swarm reports no out-of-memory kill)', () => {
    expect(endingInWords({ ...exit(137), status: notes.failed(137) })).toBe(
      'exited 137: killed, out of memory?',
    );
    expect(endingInWords({ reason: 'oom_killed', exitCode: 137, status: null })).toBe(
      'was killed for lack of memory (exit code 137)',
    );
  });
});
