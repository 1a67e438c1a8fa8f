import { z } from 'zod';
import { defineOperations, errors, failure, jsonBody, ok } from './operation';
import { pauseRequestSchema } from './pause';

/** Jobs of a queue in each waiting or active state, now. */
export const activeCountsSchema = z.object({
  submitted: z.number().int(),
  pending: z.number().int(),
  runnable: z.number().int(),
  starting: z.number().int(),
  running: z.number().int(),
  cancelling: z.number().int(),
});

/** Jobs of a queue that reached each final state within a window. */
export const finalCountsSchema = z.object({
  completed: z.number().int(),
  failed: z.number().int(),
  timeout: z.number().int(),
  cancelled: z.number().int(),
  error: z.number().int(),
});

/** A job an operator would open first: by id and name, with the time it waits or runs since. */
export const queueJobRefSchema = z.object({
  id: z.string(),
  name: z.string(),
  since: z.string().meta({ description: 'Created (waiting) or started (running), RFC 3339' }),
});

/** Extension: one queue of the project, its settings and its jobs counted by state. */
export const queueSummarySchema = z.object({
  queue: z.string(),
  max_running: z.number().int().meta({
    description:
      'Jobs of the queue holding a slot at once, now (as configured unless changed through the API)',
  }),
  priority: z.number().int(),
  paused: z.boolean(),
  paused_reason: z
    .string()
    .nullable()
    .optional()
    .meta({ description: 'Why it was paused, as given to Queue Pause; null when none was given' }),
  configured_max_running: z
    .number()
    .int()
    .optional()
    .meta({ description: 'max_running in the configuration' }),
  max_running_ceiling: z
    .number()
    .int()
    .optional()
    .meta({ description: 'The most max_running Queue Max Running accepts' }),
  retention_seconds: z.number().int().nullable().optional().meta({
    description:
      'How long its finished jobs are kept before they are deleted, in seconds; null: kept forever (docs/guides/retention.md)',
  }),
  changed: z
    .object({
      at: z.string().meta({ description: 'RFC 3339' }),
      by: z.string().meta({ description: 'The id of the API key that made the change' }),
    })
    .nullable()
    .optional()
    .meta({ description: 'The last pause, resume or max_running change; null when none was' }),
  now: activeCountsSchema,
  last_hour: finalCountsSchema,
  last_day: finalCountsSchema,
  /** The job waiting longest of those that could start now (docs/guides/queues.md); null when none. */
  oldest_waiting: queueJobRefSchema.nullable().optional(),
  /** The running job that started first; null when none runs. */
  longest_running: queueJobRefSchema.nullable().optional(),
});
export type QueueSummary = z.infer<typeof queueSummarySchema>;

/** Extension: a queue's max_running set through the API; null goes back to the configured one. */
export const queueMaxRunningSchema = z.strictObject(
  {
    max_running: z
      .number({ error: 'must be an integer of at least 1, or null for the configured value' })
      .int('must be an integer of at least 1, or null for the configured value')
      .min(1, 'must be an integer of at least 1, or null for the configured value')
      .nullable(),
  },
  { error: 'body must be a JSON object like { "max_running": 8 }' },
);
export type QueueMaxRunningRequest = z.infer<typeof queueMaxRunningSchema>;

export const queueListSchema = z.object({ items: z.array(queueSummarySchema) });
export type QueueList = z.infer<typeof queueListSchema>;

const queueSummary = queueSummarySchema.meta({ id: 'QueueSummary' });
const queueAction = {
  method: 'post',
  role: 'admin',
  params: z.object({ queue: z.string().meta({ description: '<project>::<queue>' }) }),
  answers: {
    200: ok(queueSummary, 'The queue as it is now'),
    ...errors(400, 401, 429),
    404: failure('No such queue in this API key’s project'),
  },
} as const;

export const queueOperations = defineOperations({
  listQueues: {
    id: 'listQueues',
    method: 'get',
    path: '/v1/client/queues',
    role: 'viewer',
    summary: "The project's queues with their jobs counted by state (extension)",
    answers: { 200: ok(queueListSchema, 'Queues, highest priority first'), ...errors(401, 429) },
  },
});

/** What changes how a queue runs, on every instance (server/jobs/queue-controls.ts). */
export const queueControlOperations = defineOperations({
  pauseQueue: {
    ...queueAction,
    id: 'pauseQueue',
    path: '/v1/client/queues/{queue}/pause',
    summary:
      'Pause a queue on every instance: it accepts jobs and starts none until resumed (extension)',
    body: jsonBody(pauseRequestSchema, false),
  },
  resumeQueue: {
    ...queueAction,
    id: 'resumeQueue',
    path: '/v1/client/queues/{queue}/resume',
    summary: 'Resume a paused queue: its waiting jobs start again (extension)',
  },
  setQueueMaxRunning: {
    ...queueAction,
    id: 'setQueueMaxRunning',
    path: '/v1/client/queues/{queue}/max-running',
    summary:
      "Change how many of a queue's jobs hold a slot at once, up to its max_running_ceiling; null: as configured (extension)",
    body: jsonBody(queueMaxRunningSchema),
  },
});
