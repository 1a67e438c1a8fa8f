import { z } from 'zod';
import { jobListQuerySchema } from './job';
import { jobStateSchema } from './states';

/**
 * Extension: an action on every job a filter matches, not only a page of them: a dry run says
 * what it would do, a start runs it in the service in batches that outlive a restart.
 */
export const BULK_LIMITS = {
  /** A filter matching more jobs than this is refused: narrow it. */
  maxJobs: 100_000,
  /** How many of the matching jobs a dry run names. */
  sample: 20,
  /** How many of the project's actions the list returns. */
  listed: 20,
};

const timestamp = z.iso.datetime({ offset: true });

/** The list's filters (GET /v1/client/jobs), as a JSON object: what the jobs table's URL says. */
export const bulkFilterSchema = z.strictObject(
  jobListQuerySchema.omit({ limit: true, cursor: true, id_suffix: true, sort: true }).shape,
  { error: 'must be an object of the list’s filters, like { "state": ["runnable"] }' },
);
export type BulkFilter = z.input<typeof bulkFilterSchema>;

export const bulkActionRequestSchema = z.strictObject(
  {
    action: z.literal('cancel', { error: 'must be "cancel"' }),
    filter: bulkFilterSchema,
    /** Say what would happen, and change nothing. */
    dry_run: z.boolean({ error: 'must be true or false' }).optional(),
  },
  {
    error:
      'body must be a JSON object like { "action": "cancel", "filter": { "state": ["runnable"] } }',
  },
);
export type BulkActionRequest = z.input<typeof bulkActionRequestSchema>;

/** What cancelling does to the matching jobs, by what their state is now (docs/api.md). */
export const bulkCancelPlanSchema = z.object({
  cancelled_at_once: z.number().int().meta({ description: 'submitted, pending, runnable' }),
  stopped: z.number().int().meta({ description: 'starting, running: cancelling, then cancelled' }),
  already_cancelling: z.number().int().meta({ description: 'cancelling, cancelled: unchanged' }),
  skipped: z.number().int().meta({ description: 'ended otherwise: a cancel is refused' }),
});
export type BulkCancelPlan = z.infer<typeof bulkCancelPlanSchema>;

export const bulkDryRunSchema = z.object({
  dry_run: z.literal(true),
  action: z.literal('cancel'),
  matched: z.number().int(),
  plan: bulkCancelPlanSchema,
  sample: z
    .array(z.object({ job_id: z.string(), job_name: z.string(), state: jobStateSchema }))
    .meta({ description: `The newest ${BULK_LIMITS.sample} matching jobs` }),
});
export type BulkDryRun = z.infer<typeof bulkDryRunSchema>;

export const bulkActionStateSchema = z.enum(['running', 'done', 'stopped']);

export const bulkActionSchema = z.object({
  id: z.string(),
  action: z.literal('cancel'),
  state: bulkActionStateSchema,
  filter: z
    .record(z.string(), z.unknown())
    .meta({ description: 'The filter as it was given, times in UTC' }),
  matched: z.number().int().meta({ description: 'Jobs matching when the action began' }),
  processed: z.number().int(),
  accepted: z.number().int().meta({ description: 'Cancel accepted (or the job already was)' }),
  refused: z.number().int().meta({ description: 'Ended, or gone, before its turn' }),
  created_by: z.string().meta({ description: 'The id of the API key that began it' }),
  created_at: timestamp,
  finished_at: timestamp.nullable(),
});
export type BulkAction = z.infer<typeof bulkActionSchema>;

export const bulkActionsSchema = z.object({ items: z.array(bulkActionSchema) });

/** Columns of GET /v1/client/bulk-actions/{id}/results, a CSV file with one row per job. */
export const BULK_RESULT_COLUMNS = ['job_id', 'job_name', 'state_before', 'result', 'message'];
