import { z } from 'zod';
import { attemptUsageSchema } from './usage';
import { jobStateSchema } from './states';

/**
 * Extension: a job's retry strategy, as a submission or a definition declares it. How many
 * attempts in all, how long to wait between them, and which ends are retried (the first rule
 * that matches decides; without one, any unsuccessful end is retried while attempts remain).
 * A cancelled job is never retried.
 */

/** Why an attempt ended, as a rule can match it (`reason`). */
export const RETRY_REASONS = ['timeout', 'error', 'node_lost', 'oom_killed'] as const;
export type RetryReason = (typeof RETRY_REASONS)[number];

export const RETRY_ACTIONS = ['retry', 'exit'] as const;
export type RetryAction = (typeof RETRY_ACTIONS)[number];

export const RETRY_LIMITS = {
  attemptsMax: 10,
  initialSecondsMax: 3600,
  factorMax: 10,
  maxSecondsMax: 86_400,
  rulesMax: 20,
  statusMaxLength: 200,
  memoryFactorMax: 10,
  /** Docker refuses a memory limit below 6 MiB. */
  memoryMinBytes: 6 * 2 ** 20,
  /** 1 TiB: past any machine a job runs on. */
  memoryMaxBytes: 2 ** 40,
} as const;

/** What an out_of_memory rule's factor left out means. */
export const OUT_OF_MEMORY_FACTOR_DEFAULT = 2;

/** What a backoff field left out means. */
export const RETRY_BACKOFF_DEFAULTS = {
  initial_seconds: 10,
  factor: 2,
  max_seconds: 300,
  jitter: 0.2,
} as const;

/** An exit code, 0 to 255, as text (leading zeros allowed). */
const EXIT_CODE_TEXT = '(0{0,2}\\d|0?[1-9]\\d|1\\d\\d|2[0-4]\\d|25[0-5])';
/** `"1-5"`: the exit codes 1 to 5. */
const EXIT_CODE_RANGE = new RegExp(`^${EXIT_CODE_TEXT}-${EXIT_CODE_TEXT}$`);
const EXIT_CODE_MESSAGE = 'must be an integer from 0 to 255 or a range like "1-5"';

/** Whether a range that has the pattern also goes upwards, which no pattern can say. */
function isUpwards(text: string): boolean {
  const [, from = '', to = ''] = EXIT_CODE_RANGE.exec(text) ?? [];
  return Number(from) <= Number(to);
}

/** A number from `min` to `max`; `what` says which kind ("an integer", "a number"). */
function bounded(min: number, max: number, what: 'an integer' | 'a number') {
  const message = `must be ${what} from ${min} to ${max}`;
  const number = z.number({ error: message }).min(min, message).max(max, message);
  return what === 'an integer' ? number.int(message) : number;
}

const exitCodeSchema = z.union(
  [
    z.number().int(EXIT_CODE_MESSAGE).min(0, EXIT_CODE_MESSAGE).max(255, EXIT_CODE_MESSAGE),
    z
      .string()
      .regex(EXIT_CODE_RANGE, EXIT_CODE_MESSAGE)
      .refine(isUpwards, EXIT_CODE_MESSAGE)
      .meta({
        description: 'A range of exit codes, its first no greater than its last',
        examples: ['1-5'],
      }),
  ],
  { error: EXIT_CODE_MESSAGE },
);

export const retryRuleSchema = z
  .strictObject(
    {
      exit_codes: z
        .array(exitCodeSchema, { error: 'must be an array of exit codes and ranges' })
        .min(1, 'must list at least one exit code or range')
        .optional(),
      reason: z
        .enum(RETRY_REASONS, { error: `must be one of ${RETRY_REASONS.join(', ')}` })
        .optional(),
      status: z
        .string({ error: 'must be a string (a glob: * and ?)' })
        .min(1, 'must not be empty')
        .max(
          RETRY_LIMITS.statusMaxLength,
          `must be at most ${RETRY_LIMITS.statusMaxLength} characters`,
        )
        .optional(),
      action: z.enum(RETRY_ACTIONS, {
        error: (issue) =>
          issue.input === undefined
            ? 'is required ("retry" or "exit")'
            : 'must be "retry" or "exit"',
      }),
    },
    { error: 'must be an object like { "exit_codes": [137], "action": "retry" }' },
  )
  .refine(
    (rule) =>
      rule.exit_codes !== undefined || rule.reason !== undefined || rule.status !== undefined,
    'must have at least one matcher: exit_codes, reason or status',
  )
  // action is required and the object strict: two fields at least is one matcher at least.
  .meta({ minProperties: 2 });
export type RetryRule = z.input<typeof retryRuleSchema>;

export const retryBackoffSchema = z.strictObject(
  {
    initial_seconds: bounded(0, RETRY_LIMITS.initialSecondsMax, 'a number')
      .optional()
      .describe('Seconds before the second attempt (default 10)'),
    factor: bounded(1, RETRY_LIMITS.factorMax, 'a number')
      .optional()
      .describe('Each later wait is the one before times this (default 2)'),
    max_seconds: bounded(0, RETRY_LIMITS.maxSecondsMax, 'a number')
      .optional()
      .describe('The longest wait, in seconds (default 300)'),
    jitter: bounded(0, 1, 'a number')
      .optional()
      .describe('Up to this share of each wait is taken off at random (default 0.2)'),
  },
  { error: 'must be an object like { "initial_seconds": 10, "factor": 2 }' },
);
export type RetryBackoff = z.input<typeof retryBackoffSchema>;

const MAX_MEMORY_MESSAGE = `must be an integer of bytes from ${RETRY_LIMITS.memoryMinBytes} (6 MiB) to ${RETRY_LIMITS.memoryMaxBytes} (1 TiB)`;

export const outOfMemoryRetrySchema = z
  .strictObject(
    {
      factor: z
        .number({ error: `must be a number above 1, at most ${RETRY_LIMITS.memoryFactorMax}` })
        .gt(1, `must be a number above 1, at most ${RETRY_LIMITS.memoryFactorMax}`)
        .max(
          RETRY_LIMITS.memoryFactorMax,
          `must be a number above 1, at most ${RETRY_LIMITS.memoryFactorMax}`,
        )
        .optional()
        .describe(
          'Each attempt after an out-of-memory kill gets the memory before times this (default 2)',
        ),
      max_memory_bytes: z
        .number({
          error: (issue) =>
            issue.input === undefined
              ? 'is required: the most memory an attempt is raised to, in bytes'
              : MAX_MEMORY_MESSAGE,
        })
        .int(MAX_MEMORY_MESSAGE)
        .min(RETRY_LIMITS.memoryMinBytes, MAX_MEMORY_MESSAGE)
        .max(RETRY_LIMITS.memoryMaxBytes, MAX_MEMORY_MESSAGE)
        .describe(
          "The most memory an attempt is raised to, in bytes: for a submission, within the definition's ceiling",
        ),
    },
    { error: 'must be an object like { "factor": 2, "max_memory_bytes": 1073741824 }' },
  )
  .meta({
    description:
      'Extension: after an attempt killed out of memory, the next one runs with its memory × factor, at most max_memory_bytes; one killed at that ceiling is not retried',
  });
export type OutOfMemoryRetry = z.input<typeof outOfMemoryRetrySchema>;

export const retryStrategySchema = z
  .strictObject(
    {
      attempts: z
        .number({
          error: (issue) =>
            issue.input === undefined
              ? `is required: the number of attempts in all, from 1 to ${RETRY_LIMITS.attemptsMax}`
              : `must be an integer from 1 to ${RETRY_LIMITS.attemptsMax}`,
        })
        .int(`must be an integer from 1 to ${RETRY_LIMITS.attemptsMax}`)
        .min(1, `must be an integer from 1 to ${RETRY_LIMITS.attemptsMax}`)
        .max(RETRY_LIMITS.attemptsMax, `must be an integer from 1 to ${RETRY_LIMITS.attemptsMax}`)
        .describe('Attempts in all, the first included (1: no retry)'),
      backoff: retryBackoffSchema.optional().describe('The wait before each further attempt'),
      on_exit: z
        .array(retryRuleSchema, { error: 'must be an array of rules' })
        .max(RETRY_LIMITS.rulesMax, `must have at most ${RETRY_LIMITS.rulesMax} rules`)
        .optional()
        .describe(
          'Rules, first match decides: `exit_codes` ([137, "1-5"]), `reason` (timeout, error, node_lost, oom_killed) and/or `status` (a glob on the note), with `action` retry or exit',
        ),
      out_of_memory: outOfMemoryRetrySchema
        .optional()
        .describe('Retries after an out-of-memory kill get more memory'),
    },
    { error: 'must be an object like { "attempts": 3 }' },
  )
  .meta({
    description:
      'Extension: attempts in all (1–10), the wait between them, and rules on how an attempt ended (the first match decides; without one an unsuccessful end is retried while attempts remain)',
  });
/** The strategy as sent (snake_case, as on the wire); backoff fields left out take their defaults. */
export type RetryStrategy = z.input<typeof retryStrategySchema>;

/** A strategy with its backoff complete: what the service stores and answers with. */
export function withDefaults(strategy: RetryStrategy): RetryStrategy {
  const { out_of_memory: outOfMemory } = strategy;
  return {
    ...strategy,
    backoff: { ...RETRY_BACKOFF_DEFAULTS, ...strategy.backoff },
    ...(outOfMemory && {
      out_of_memory: { factor: OUT_OF_MEMORY_FACTOR_DEFAULT, ...outOfMemory },
    }),
  };
}

const isoTime = z.string().meta({ description: 'RFC 3339, UTC, milliseconds' });

/** Extension: one attempt of a job that ended. */
export const attemptSchema = z.object({
  attempt: z.number().int(),
  state: jobStateSchema.meta({
    description:
      'How it ended: failed, timeout, error, completed, cancelled (cancelled too when preempted)',
  }),
  exit_code: z.number().int().nullable(),
  reason: z.string().meta({
    description:
      'exit, timeout, error, node_lost, oom_killed, completed, cancelled, or preempted (a lender took back the quota it lent: the job runs again, and the attempt counts against none of its retries)',
  }),
  note: z.string().nullable(),
  node: z.string().nullable(),
  started_at: isoTime.nullable(),
  finished_at: isoTime,
  retried: z.boolean().meta({ description: 'Whether another attempt followed it' }),
  memory_bytes: z.number().int().nullable().optional().meta({
    description:
      'The memory limit it ran with (raised by retry.out_of_memory); null: recorded before this was kept, or it never started; absent from services that do not keep it',
  }),
  usage: attemptUsageSchema
    .optional()
    .meta({ description: 'What it used; absent when the engine reported nothing for it' }),
});
export type Attempt = z.infer<typeof attemptSchema>;

export const attemptsAnswerSchema = z.object({
  attempt: z
    .number()
    .int()
    .meta({ description: 'The attempt the job is on (the last, once final)' }),
  attempts_max: z.number().int(),
  retry: retryStrategySchema.nullable(),
  next_attempt_at: isoTime.nullable().meta({
    description: 'While the job waits (runnable) for its next attempt: when that may start',
  }),
  items: z.array(attemptSchema).meta({ description: 'Attempts that ended, oldest first' }),
});
export type AttemptsAnswer = z.infer<typeof attemptsAnswerSchema>;

const ATTEMPT_NUMBER = `must be an integer from 1 to ${RETRY_LIMITS.attemptsMax}`;

/** `/job/{job_id}/attempts/{attempt}/logs`: the attempt checked like a field, and so documented. */
export const attemptLogsPathSchema = z.object({
  job_id: z.string(),
  attempt: z.coerce
    .number({ error: ATTEMPT_NUMBER })
    .int({ message: ATTEMPT_NUMBER, abort: true })
    .min(1, { message: ATTEMPT_NUMBER, abort: true })
    .max(RETRY_LIMITS.attemptsMax, ATTEMPT_NUMBER),
});
