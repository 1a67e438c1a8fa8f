import { z } from 'zod';

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
  max_running: z.number().int(),
  priority: z.number().int(),
  paused: z.boolean(),
  now: activeCountsSchema,
  last_hour: finalCountsSchema,
  last_day: finalCountsSchema,
  /** The job waiting longest (submitted, pending or runnable); null when none waits. */
  oldest_waiting: queueJobRefSchema.nullable().optional(),
  /** The running job that started first; null when none runs. */
  longest_running: queueJobRefSchema.nullable().optional(),
});
export type QueueSummary = z.infer<typeof queueSummarySchema>;

export const queueListSchema = z.object({ items: z.array(queueSummarySchema) });
export type QueueList = z.infer<typeof queueListSchema>;
