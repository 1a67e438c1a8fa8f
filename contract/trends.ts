import { z } from 'zod';
import { defineOperations, errors, failure, ok } from './operation';

/**
 * Extension: a queue's jobs ended per hour (24 hours) or per day (30 days), by outcome, and the
 * median and 95th percentile of their waiting and run times, from rollups the service keeps.
 */
export const TREND_RANGES = ['24h', '30d'] as const;
export type TrendRange = (typeof TREND_RANGES)[number];

export const trendsQuerySchema = z.strictObject({
  queue: z
    .string({ error: 'is required: a queue of the project, as GET /v1/client/queues names it' })
    .min(1, 'is required: a queue of the project, as GET /v1/client/queues names it'),
  range: z.enum(TREND_RANGES, { error: 'must be "24h" or "30d"' }).default('24h'),
});
export type TrendsQuery = z.input<typeof trendsQuerySchema>;

/** Jobs that ended within one hour or day (UTC), by how they ended. */
export const trendBucketSchema = z.object({
  start: z.string().meta({ description: 'The bucket’s start, RFC 3339 (UTC)' }),
  completed: z.number().int(),
  failed: z.number().int().meta({ description: 'failed, timeout and error' }),
  cancelled: z.number().int(),
});
export type TrendBucket = z.infer<typeof trendBucketSchema>;

/** Percentiles over the range, approximate to a histogram bucket (docs/guides/trends.md). */
export const trendDurationSchema = z.object({
  jobs: z.number().int().meta({ description: 'Jobs measured: those that started' }),
  p50_ms: z.number().int().nullable().meta({ description: 'null when no job was measured' }),
  p95_ms: z.number().int().nullable(),
});
export type TrendDuration = z.infer<typeof trendDurationSchema>;

/** A window when the engine was unreachable or the queue paused (extension of the trends). */
export const trendIncidentSchema = z.object({
  kind: z.enum(['engine_unreachable', 'queue_paused']),
  started_at: z.string().meta({ description: 'RFC 3339 (UTC)' }),
  ended_at: z.string().nullable().meta({ description: 'null while it lasts' }),
  note: z.string().nullable().meta({ description: 'The pause’s reason, when one was given' }),
  ended_error: z.number().int().meta({
    description:
      'The queue’s jobs that ended `error` from its start until 60 s after its end (counted up to 10,000): those it may have ended',
  }),
  errors_filter: z
    .object({
      state: z.array(z.literal('error')),
      queue: z.string(),
      ended_after: z.string(),
      ended_before: z.string().optional(),
    })
    .meta({
      description:
        'The list filter of those jobs, for GET /v1/client/jobs or a bulk action (`resubmit` tries them again)',
    }),
});
export type TrendIncident = z.infer<typeof trendIncidentSchema>;

export const trendsSchema = z.object({
  queue: z.string(),
  range: z.enum(TREND_RANGES),
  bucket_seconds: z.number().int().meta({ description: '3600 (24h) or 86400 (30d)' }),
  buckets: z.array(trendBucketSchema).meta({ description: 'Oldest first, the current one last' }),
  wait: trendDurationSchema.meta({
    description: 'Submitted (or its scheduled time, when later) until its first start',
  }),
  run: trendDurationSchema.meta({ description: 'Start of its last attempt until its end' }),
  incidents: z
    .array(trendIncidentSchema.meta({ id: 'TrendIncident' }))
    .optional()
    .meta({
      description:
        'The engine’s outages and the queue’s pauses overlapping the range, oldest first (kept 31 days)',
    }),
});
export type Trends = z.infer<typeof trendsSchema>;

export const trendOperations = defineOperations({
  queueTrends: {
    id: 'queueTrends',
    method: 'get',
    path: '/v1/client/trends',
    role: 'viewer',
    summary:
      "A queue's jobs ended per hour (24h) or day (30d) by outcome, with the median and 95th percentile of their waiting and run times (extension)",
    query: trendsQuerySchema,
    answers: {
      200: ok(trendsSchema.meta({ id: 'Trends' }), 'Oldest bucket first'),
      ...errors(400, 401, 429),
      404: failure('No such queue in this API key’s project'),
    },
  },
});
