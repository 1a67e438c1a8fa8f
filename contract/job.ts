import { z } from 'zod';
import { jobStateSchema } from './states';

const timestamp = z.iso.datetime({ offset: true });

/** Job Detail's record: exactly the spec's seven fields. */
export const jobRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: jobStateSchema,
  system_note: z.string().nullable(),
  schedule_at: timestamp.nullable(),
  created_at: timestamp,
  updated_at: timestamp.nullable(),
});
export type JobRecord = z.infer<typeof jobRecordSchema>;

export const submitJobResultSchema = z.object({ id: z.string() });

/** Extension: one row of the job list, the record plus where the job runs. */
export const jobListItemSchema = jobRecordSchema.extend({
  job_queue: z.string(),
  job_definition: z.string(),
});
export type JobListItem = z.infer<typeof jobListItemSchema>;

export const jobListSchema = z.object({
  items: z.array(jobListItemSchema),
  next_cursor: z.string().nullable(),
});
export type JobList = z.infer<typeof jobListSchema>;

export const jobListQuerySchema = z.strictObject({
  state: jobStateSchema.optional(),
  queue: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().optional(),
});

/** Extension: the job's state history as the service recorded it. */
export const jobTransitionSchema = z.object({
  from: jobStateSchema.nullable(),
  to: jobStateSchema,
  at: timestamp,
  note: z.string().nullable(),
});
export const jobTransitionsSchema = z.object({ items: z.array(jobTransitionSchema) });
export type JobTransition = z.infer<typeof jobTransitionSchema>;

/** Extension: the tail of the container's output. */
export const jobLogsSchema = z.object({
  text: z.string(),
  truncated: z.boolean(),
});
export type JobLogs = z.infer<typeof jobLogsSchema>;
