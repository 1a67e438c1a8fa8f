import { z } from 'zod';

/**
 * Extension: how a job is tried again when an attempt ends without success (docs/api.md,
 * "Retries"). A definition may declare one; a submission's replaces it as a whole.
 */

/** Why an attempt ended, as a rule can name it (an ordinary non-zero exit is matched by code). */
export const RETRY_REASONS = ['timeout', 'error', 'node_lost', 'oom_killed'] as const;
export type RetryReason = (typeof RETRY_REASONS)[number];

export const MAX_ATTEMPTS = 10;
export const MAX_EXIT_RULES = 20;
const MAX_STATUS_GLOB = 200;

/** `137` or `"1-5"`: one exit code, or a range of them. */
const exitCodeMatch = z.union(
  [
    z.number().int().min(0).max(255),
    z
      .string()
      .regex(/^\d{1,3}-\d{1,3}$/)
      .refine((range) => {
        const [from, to] = range.split('-').map(Number) as [number, number];
        return from <= to && to <= 255;
      }, 'must be a range "a-b" with a ≤ b ≤ 255'),
  ],
  { error: 'must be exit codes 0–255 or ranges like "1-5"' },
);

const exitRuleSchema = z
  .strictObject(
    {
      exit_codes: z
        .array(exitCodeMatch, { error: 'must be an array of exit codes or ranges like "1-5"' })
        .min(1, 'must not be empty')
        .max(50, 'must have at most 50 entries')
        .optional(),
      reason: z
        .enum(RETRY_REASONS, { error: `must be one of ${RETRY_REASONS.join(', ')}` })
        .optional(),
      status: z
        .string({ error: 'must be a string' })
        .min(1, 'must not be empty')
        .max(MAX_STATUS_GLOB, `must be at most ${MAX_STATUS_GLOB} characters`)
        .optional(),
      action: z.enum(['retry', 'exit'], { error: 'is required: "retry" or "exit"' }),
    },
    { error: 'must be an object like { "exit_codes": [137], "action": "retry" }' },
  )
  .refine(
    (rule) =>
      rule.exit_codes !== undefined || rule.reason !== undefined || rule.status !== undefined,
    'must match on at least one of exit_codes, reason or status',
  );

const backoffSchema = z.strictObject(
  {
    initial_seconds: z
      .number({ error: 'must be a number' })
      .min(0, 'must be from 0 to 3600')
      .max(3600, 'must be from 0 to 3600')
      .optional()
      .describe('Seconds before the second attempt (default 10)'),
    factor: z
      .number({ error: 'must be a number' })
      .min(1, 'must be from 1 to 10')
      .max(10, 'must be from 1 to 10')
      .optional()
      .describe('Each later wait is the one before times this (default 2)'),
    max_seconds: z
      .number({ error: 'must be a number' })
      .min(0, 'must be from 0 to 86400')
      .max(86400, 'must be from 0 to 86400')
      .optional()
      .describe('The longest wait, in seconds (default 300)'),
    jitter: z
      .number({ error: 'must be a number' })
      .min(0, 'must be from 0 to 1')
      .max(1, 'must be from 0 to 1')
      .optional()
      .describe('Up to this share of each wait is taken off at random (default 0.2)'),
  },
  { error: 'must be an object like { "initial_seconds": 10, "factor": 2 }' },
);

export const retryStrategySchema = z
  .strictObject(
    {
      attempts: z
        .number({ error: `is required: an integer from 1 to ${MAX_ATTEMPTS}` })
        .int(`must be an integer from 1 to ${MAX_ATTEMPTS}`)
        .min(1, `must be an integer from 1 to ${MAX_ATTEMPTS}`)
        .max(MAX_ATTEMPTS, `must be an integer from 1 to ${MAX_ATTEMPTS}`)
        .describe('Attempts in all, the first included (1: no retry)'),
      backoff: backoffSchema.optional().describe('The wait before each further attempt'),
      on_exit: z
        .array(exitRuleSchema, { error: 'must be an array of rules' })
        .max(MAX_EXIT_RULES, `must have at most ${MAX_EXIT_RULES} rules`)
        .optional()
        .describe(
          'Rules, first match decides: `exit_codes` ([137, "1-5"]), `reason` (timeout, error, node_lost, oom_killed) and/or `status` (a glob on the note), with `action` retry or exit',
        ),
    },
    { error: 'must be an object like { "attempts": 3 }' },
  )
  .meta({
    description:
      'Extension: attempts in all (1–10), the delay between them, and rules on how an attempt ended (first match decides; without a match an unsuccessful end is retried while attempts remain)',
  });
export type RetryStrategy = z.infer<typeof retryStrategySchema>;
export type ExitRule = NonNullable<RetryStrategy['on_exit']>[number];

/** The backoff used for what a strategy leaves out. */
export const DEFAULT_BACKOFF = { initial_seconds: 10, factor: 2, max_seconds: 300, jitter: 0.2 };

/** A strategy with its backoff complete: what the service stores and answers with. */
export function withDefaults(strategy: RetryStrategy): RetryStrategy {
  return { ...strategy, backoff: { ...DEFAULT_BACKOFF, ...strategy.backoff } };
}

const isoTime = z.string().meta({ description: 'RFC 3339, UTC, milliseconds' });

/** Extension: one attempt of a job that ended. */
export const attemptSchema = z.object({
  attempt: z.number().int(),
  state: z
    .string()
    .meta({ description: 'How it ended: failed, timeout, error, completed, cancelled' }),
  exit_code: z.number().int().nullable(),
  reason: z
    .string()
    .meta({ description: 'exit, timeout, error, node_lost, oom_killed, completed or cancelled' }),
  note: z.string().nullable(),
  node: z.string().nullable(),
  started_at: isoTime.nullable(),
  finished_at: isoTime,
  retried: z.boolean().meta({ description: 'Whether another attempt followed it' }),
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
