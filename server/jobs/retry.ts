import { RETRY_BACKOFF_DEFAULTS, type RetryRule, type RetryStrategy } from '../../contract';
import { memoryRaise } from './memory-retry';
import type { Job } from './model';
import { notes } from './notes';
import type { Outcome } from './outcome';
import type { Workload } from './ports';

/** Why an attempt ended without success, as a rule names it; `exit` is a plain non-zero exit. */
export type EndReason = 'exit' | 'timeout' | 'error' | 'node_lost' | 'oom_killed';

/** An unsuccessful end of an attempt, as the rules look at it. */
export interface Ending {
  reason: EndReason;
  exitCode: number | null;
  /** What the engine (or the service) said of it: the job's note for this end. */
  status: string | null;
}

export function endingOf(outcome: Outcome, workload: Workload | null): Ending {
  const { exitCode } = outcome.fields;
  const status = outcome.note;
  if (outcome.to === 'timeout') return { reason: 'timeout', exitCode, status };
  if (workload?.cause) return { reason: workload.cause, exitCode, status };
  return { reason: outcome.to === 'error' ? 'error' : 'exit', exitCode, status };
}

/** `*` any run of characters, `?` one; everything else as written. */
function globMatches(glob: string, text: string): boolean {
  const pattern = glob
    .split('')
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`, 's').test(text);
}

function exitCodeMatches(codes: NonNullable<RetryRule['exit_codes']>, code: number | null) {
  if (code === null) return false;
  return codes.some((entry) => {
    if (typeof entry === 'number') return entry === code;
    const [from, to] = entry.split('-').map(Number) as [number, number];
    return code >= from && code <= to;
  });
}

/** A rule matches when every matcher it has does. */
export function ruleMatches(rule: RetryRule, ending: Ending): boolean {
  if (rule.exit_codes && !exitCodeMatches(rule.exit_codes, ending.exitCode)) return false;
  if (rule.reason && rule.reason !== ending.reason) return false;
  if (rule.status !== undefined && !globMatches(rule.status, ending.status ?? '')) return false;
  return true;
}

/**
 * The wait before attempt `next` (2, 3, …): initial × factor^(next − 2), at most max_seconds,
 * less a random share of up to `jitter` of it, so that jobs failing together do not all retry at
 * the same instant. `random` in [0, 1).
 */
export function backoffMs(strategy: RetryStrategy, next: number, random: number): number {
  const { initial_seconds, factor, max_seconds, jitter } = {
    ...RETRY_BACKOFF_DEFAULTS,
    ...strategy.backoff,
  };
  const seconds = Math.min(max_seconds, initial_seconds * factor ** (next - 2));
  return Math.round(seconds * (1 - jitter * random) * 1000);
}

export type RetryDecision =
  | {
      retry: true;
      delayMs: number;
      /** The memory the next attempt runs with, raised after an out-of-memory kill. */
      memoryBytes?: number;
    }
  | {
      retry: false;
      /** Why it was not retried where its note alone would not say: the memory ceiling. */
      because?: string;
    };

/**
 * Whether the job gets another attempt after this unsuccessful one: none once its attempts are
 * used; else the first rule that matches decides, and without one it is retried. An attempt
 * killed out of memory, under an `out_of_memory` rule, is retried with more memory, or not at
 * all once it ran at the rule's ceiling.
 *
 * @param ranWithBytes the memory limit the attempt ran with (null: unknown, no raise)
 */
export function decideRetry(
  job: Pick<Job, 'retry' | 'attempt'> & Partial<Pick<Job, 'preemptions'>>,
  ending: Ending,
  random: number,
  ranWithBytes: number | null = null,
): RetryDecision {
  const strategy = job.retry;
  // Preempted attempts count against none of its retries.
  const tried = job.attempt - (job.preemptions ?? 0);
  if (!strategy || tried >= strategy.attempts) return { retry: false };
  const rule = strategy.on_exit?.find((r) => ruleMatches(r, ending));
  if (rule?.action === 'exit') return { retry: false };
  const raise =
    ending.reason === 'oom_killed' && ranWithBytes !== null
      ? memoryRaise(strategy, ranWithBytes)
      : undefined;
  if (raise && 'atCeiling' in raise) {
    return { retry: false, because: notes.memoryCeilingReached(raise.atCeiling) };
  }
  return {
    retry: true,
    delayMs: backoffMs(strategy, tried + 1, random),
    ...(raise && { memoryBytes: raise.to }),
  };
}

/** How an attempt ended, in a few words for the next one's note. */
export function endingInWords(ending: Ending): string {
  switch (ending.reason) {
    case 'timeout':
      return 'timed out';
    case 'oom_killed':
      return (
        killedInWords(ending) ??
        `was killed for lack of memory (exit code ${ending.exitCode ?? 'unknown'})`
      );
    case 'node_lost':
      return 'lost its node';
    case 'error':
      return `ended in error: ${ending.status ?? 'the engine did not say why'}`;
    case 'exit':
      if (ending.exitCode !== 137) return `exited ${ending.exitCode ?? 'without a code'}`;
      return killedInWords(ending) ?? 'exited 137: killed, out of memory?';
  }
}

/**
 * A SIGKILL as its note told it (notes.outOfMemory, notes.killedNotOutOfMemory: out of memory
 * at which peak, or not); undefined where the engine could not tell, and the note did not say.
 */
function killedInWords(ending: Ending): string | undefined {
  return ending.status?.startsWith('killed') ? `was ${ending.status}` : undefined;
}
