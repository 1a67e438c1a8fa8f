import {
  OUT_OF_MEMORY_FACTOR_DEFAULT,
  RETRY_BACKOFF_DEFAULTS,
  type RetryRule,
  type RetryStrategy,
} from '../../contract';
import { formatBytes } from './time';

/** 10 s, 5 min, 1 h, 90 s: a delay as people say it. */
export function formatSeconds(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

const REASON_TEXT: Record<string, string> = {
  timeout: 'timeout',
  error: 'error',
  node_lost: 'node lost',
  oom_killed: 'out of memory',
  exit: 'exited',
  completed: 'completed',
  cancelled: 'cancelled',
  preempted: 'preempted: quota reclaimed',
};

/** oom_killed → "out of memory": an attempt's end reason in words (unknown ones as they are). */
export const reasonText = (reason: string) => REASON_TEXT[reason] ?? reason;

/** `exit 137, 1-5 and status "*node*" → retry`: one rule, its matchers all needed. */
export function ruleText(rule: RetryRule): string {
  const matchers: string[] = [];
  if (rule.exit_codes) matchers.push(`exit ${rule.exit_codes.join(', ')}`);
  if (rule.reason) matchers.push(reasonText(rule.reason));
  if (rule.status) matchers.push(`status "${rule.status}"`);
  return `${matchers.join(' and ')} → ${rule.action}`;
}

/**
 * `3 attempts, backoff 10 s ×2 up to 5 min (±20%); rules: exit 137 → retry; timeout → exit`. A
 * backoff field left out reads as its default.
 */
export function strategyText(strategy: RetryStrategy): string {
  if (strategy.attempts <= 1) return '1 attempt (no retries)';
  const backoff = { ...RETRY_BACKOFF_DEFAULTS, ...strategy.backoff };
  let text =
    `${strategy.attempts} attempts, backoff ${formatSeconds(backoff.initial_seconds)} ` +
    `×${backoff.factor} up to ${formatSeconds(backoff.max_seconds)}`;
  if (backoff.jitter > 0) text += ` (±${Math.round(backoff.jitter * 100)}% jitter)`;
  const rules = strategy.on_exit ?? [];
  text +=
    rules.length > 0
      ? `; rules: ${rules.map(ruleText).join('; ')}`
      : '; any unsuccessful end is retried';
  const memory = strategy.out_of_memory;
  if (memory) {
    const factor = memory.factor ?? OUT_OF_MEMORY_FACTOR_DEFAULT;
    text += `; out of memory: memory ×${factor} up to ${formatBytes(memory.max_memory_bytes)}`;
  }
  return text;
}
