import type { RetryAction, RetryReason, RetryStrategy } from '../../../contract';

/* The Retries section of the submit form: its fields, and the strategy they describe. */

/** One rule of `retry.on_exit`: each matcher given must match (empty ones are left out). */
export interface RetryRuleValues {
  /** `137, 1-5`: exit codes and ranges, separated by commas or spaces. */
  exitCodes: string;
  reason: '' | RetryReason;
  /** A glob on the engine's status text. */
  status: string;
  action: RetryAction;
}

/** The retry strategy as typed: empty numbers are left out (the service's defaults apply). */
export interface RetryValues {
  attempts: string;
  initialSeconds: string;
  factor: string;
  maxSeconds: string;
  jitter: string;
  rules: RetryRuleValues[];
}

export const emptyRetry = (): RetryValues => ({
  attempts: '',
  initialSeconds: '',
  factor: '',
  maxSeconds: '',
  jitter: '',
  rules: [],
});

export const emptyRule = (): RetryRuleValues => ({
  exitCodes: '',
  reason: '',
  status: '',
  action: 'retry',
});

const BACKOFF_FIELDS = [
  ['initialSeconds', 'initial_seconds'],
  ['factor', 'factor'],
  ['maxSeconds', 'max_seconds'],
  ['jitter', 'jitter'],
] as const;

/** Whether the person set anything of the strategy: only then does the body carry `retry`. */
export function retryIsSet(retry: RetryValues): boolean {
  return (
    retry.attempts.trim() !== '' ||
    BACKOFF_FIELDS.some(([field]) => retry[field].trim() !== '') ||
    retry.rules.length > 0
  );
}

/** A typed number; left out when empty. Not a number: NaN, which the schema names. */
export const numberOf = (text: string) => (text.trim() === '' ? undefined : Number(text.trim()));

/** `137, 1-5` → `[137, "1-5"]`; what is not a code stays text, for the schema to name. */
const exitCodesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter((word) => word !== '')
    .map((word) => (/^\d+$/.test(word) ? Number(word) : word));

/** The strategy the fields describe, as sent; undefined when nothing of it is set. */
export function retryFromForm(retry: RetryValues): RetryStrategy | undefined {
  if (!retryIsSet(retry)) return undefined;
  // Attempts left empty with the rest set: sent without, for the schema to say it is required.
  const strategy = { attempts: numberOf(retry.attempts) } as RetryStrategy;
  const backoff: NonNullable<RetryStrategy['backoff']> = {};
  for (const [field, key] of BACKOFF_FIELDS) {
    const value = numberOf(retry[field]);
    if (value !== undefined) backoff[key] = value;
  }
  if (Object.keys(backoff).length > 0) strategy.backoff = backoff;
  if (retry.rules.length > 0) {
    strategy.on_exit = retry.rules.map((rule) => {
      const codes = exitCodesOf(rule.exitCodes);
      return {
        ...(codes.length > 0 && { exit_codes: codes }),
        ...(rule.reason && { reason: rule.reason }),
        ...(rule.status !== '' && { status: rule.status }),
        action: rule.action,
      };
    });
  }
  return strategy;
}

/** The fields for a strategy (of a payload submitted before, or imported). */
export function retryToForm(strategy: RetryStrategy | undefined): RetryValues {
  if (!strategy) return emptyRetry();
  const text = (value: number | undefined) => (value === undefined ? '' : String(value));
  return {
    attempts: text(strategy.attempts),
    initialSeconds: text(strategy.backoff?.initial_seconds),
    factor: text(strategy.backoff?.factor),
    maxSeconds: text(strategy.backoff?.max_seconds),
    jitter: text(strategy.backoff?.jitter),
    rules: (strategy.on_exit ?? []).map((rule) => ({
      exitCodes: (rule.exit_codes ?? []).join(', '),
      reason: rule.reason ?? '',
      status: rule.status ?? '',
      action: rule.action,
    })),
  };
}

const RULE_FIELDS = {
  exit_codes: 'exitCodes',
  reason: 'reason',
  status: 'status',
  action: 'action',
} as const;

/**
 * `retry.attempts`, `retry.backoff.factor`, `retry.on_exit[0].exit_codes[1]`: the control of the
 * retries section that holds it. A fault of a whole rule (no matcher) shows at its exit codes.
 */
export function retryFieldOf(field: string, ruleCount: number): string | null {
  if (field === 'retry.attempts') return 'retry.attempts';
  const backoff = /^retry\.backoff\.(\w+)$/.exec(field);
  if (backoff) {
    const control = BACKOFF_FIELDS.find(([, key]) => key === backoff[1])?.[0];
    return control ? `retry.${control}` : null;
  }
  if (field === 'retry.on_exit') return 'retry.rules';
  const rule = /^retry\.on_exit\[(\d+)\](?:\.(exit_codes|reason|status|action)(?:\[\d+\])?)?$/.exec(
    field,
  );
  if (!rule) return null;
  const index = Number(rule[1]);
  if (index >= ruleCount) return 'retry.rules';
  return `retry.rules.${index}.${RULE_FIELDS[(rule[2] ?? 'exit_codes') as keyof typeof RULE_FIELDS]}`;
}
