import { z } from 'zod';
import { DEFINITION_REF, ENV_NAME, IDENTIFIER_MESSAGES, JOB_NAME, QUEUE_REF } from './identifiers';
import { DEFAULT_LIMITS, type SubmitLimits } from './limits';
import { arraySchema } from './arrays';
import { dependsOnSchema } from './dependencies';
import { labelsSchema } from './labels';
import { resourceRequestSchema } from './resources';
import { retryStrategySchema } from './retry';
import { atMostKeys, boundedString, plainText, recordKeysMeta, refusingReservedKeys } from './text';

/** Unix seconds or an RFC 3339 string, as milliseconds since the epoch. */
export function scheduleAtToMillis(value: string | number): number {
  return typeof value === 'number' ? Math.round(value * 1000) : Date.parse(value);
}

/**
 * What a form finds before there is a body to check: a required field left blank, a key given
 * twice (a JSON object holds each key once, so the schema never sees the second). Kept beside the
 * schema's own messages so that the console copies none of them.
 */
export const SUBMIT_FORM_MESSAGES = {
  required: 'is required',
  duplicate: (noun: string, key: string) => `duplicate ${noun} "${key}"`,
} as const;

export function buildSubmitJobSchema(limits: SubmitLimits = DEFAULT_LIMITS) {
  const maxAheadMs = limits.scheduleMaxAheadDays * 24 * 3600 * 1000;
  const notTooFarAhead = (value: string | number) =>
    scheduleAtToMillis(value) <= Date.now() + maxAheadMs;
  const tooFarMessage = `must be at most ${limits.scheduleMaxAheadDays} days ahead`;

  const parameterName = plainText(z.string());
  const envName = z.string().regex(ENV_NAME, IDENTIFIER_MESSAGES.envName);

  return z.strictObject(
    {
      job_definition: z
        .string({ error: 'is required and must be a string' })
        .regex(DEFINITION_REF, IDENTIFIER_MESSAGES.definitionRef),
      job_queue: z
        .string({ error: 'is required and must be a string' })
        .regex(QUEUE_REF, IDENTIFIER_MESSAGES.queueRef),
      name: z
        .string({ error: 'must be a string' })
        .min(1, 'must not be empty')
        .max(limits.nameMaxLength, `must be at most ${limits.nameMaxLength} characters`)
        .regex(JOB_NAME, IDENTIFIER_MESSAGES.jobName)
        .optional(),
      container_cmd: z
        .array(boundedString(limits.commandWordMaxBytes), { error: 'must be an array of strings' })
        // No words is no command at all: refused rather than guessed (docs/api.md, Job Submit).
        .min(1, "must have at least one word (leave the field out for the definition's command)")
        .max(limits.commandWordsMax, `must have at most ${limits.commandWordsMax} words`)
        .meta({
          description:
            "The command words, at least one; a word Param::<key> is replaced by that parameter. Omitted: the definition's command",
        })
        .optional(),
      container_cmd_parameter: refusingReservedKeys(
        z
          .record(parameterName, boundedString(limits.commandWordMaxBytes), {
            error: 'must be an object of string values',
          })
          .refine(...atMostKeys(limits.parametersMax, 'parameters'))
          .meta(recordKeysMeta(parameterName, limits.parametersMax)),
      ).optional(),
      container_env: refusingReservedKeys(
        z
          .record(
            envName,
            z.strictObject(
              {
                value: boundedString(limits.envValueMaxBytes),
                sensitive: z.boolean({ error: 'must be true or false' }).optional(),
              },
              { error: 'must be an object like { "value": "…", "sensitive": false }' },
            ),
            { error: 'must be an object mapping variable names to { value, sensitive }' },
          )
          .refine(...atMostKeys(limits.envVarsMax, 'variables'))
          .meta(recordKeysMeta(envName, limits.envVarsMax)),
      ).optional(),
      schedule_at: z
        .union(
          [
            z.iso
              .datetime({ offset: true, error: 'must be an RFC 3339 date-time with a time zone' })
              .refine(notTooFarAhead, tooFarMessage),
            z
              .number()
              .finite()
              .nonnegative('must not be negative')
              .refine(notTooFarAhead, tooFarMessage),
          ],
          {
            error:
              'must be an RFC 3339 UTC date-time string (2026-11-21T10:00:00.000Z) or Unix seconds',
          },
        )
        .optional()
        .meta({
          description: `An RFC 3339 time or Unix seconds, at most ${limits.scheduleMaxAheadDays} days ahead (checked at the submit)`,
        }),
      retry: retryStrategySchema.optional(),
      depends_on: dependsOnSchema.optional(),
      array: arraySchema.optional(),
      labels: labelsSchema.optional(),
      resources: resourceRequestSchema.optional(),
    },
    { error: 'body must be a JSON object' },
  );
}

export const submitJobSchema = buildSubmitJobSchema();
export type SubmitJobRequest = z.infer<typeof submitJobSchema>;

/** Job Submit with the spec's fields alone, for a service run with `extensions: false`. */
export const specSubmitJobSchema: z.ZodType<SubmitJobRequest> = submitJobSchema.omit({
  retry: true,
  depends_on: true,
  array: true,
  labels: true,
  resources: true,
});

/** What an Idempotency-Key must be, said in a 400's message after `Idempotency-Key: `. */
export const IDEMPOTENCY_KEY_RULE =
  'must be 1 to 255 printable ASCII characters (a UUID is a good key)';

/**
 * Job Submit's Idempotency-Key header (an extension): the same key and request again within its
 * window answers with the same job, and creates nothing.
 */
export const idempotencyKeySchema = z
  .string()
  .regex(/^[\x20-\x7e]{1,255}$/, IDEMPOTENCY_KEY_RULE)
  .meta({
    description:
      'Makes the submit safe to retry (extension): the same key with the same request, in this project, within the window (24 h unless configured) answers 202 with the job the first made, and creates nothing; with a different request, 409. 1 to 255 printable ASCII characters.',
  });
