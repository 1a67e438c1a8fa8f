import { z } from 'zod';
import { defineOperations, errors, failure, jsonBody, ok } from './operation';
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

/** Cancel each job, or submit each again (POST /v1/client/job/{job_id}/resubmit, its secrets kept). */
export const BULK_ACTION_KINDS = ['cancel', 'resubmit'] as const;
export const bulkActionKindSchema = z.enum(BULK_ACTION_KINDS, {
  error: 'must be "cancel" or "resubmit"',
});
export type BulkActionKind = z.infer<typeof bulkActionKindSchema>;

export const bulkActionRequestSchema = z.strictObject(
  {
    action: bulkActionKindSchema,
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

/** What submitting the matching jobs again does, by whether each has ended. */
export const bulkResubmitPlanSchema = z.object({
  resubmitted: z.number().int().meta({ description: 'ended: each submitted again' }),
  skipped: z.number().int().meta({ description: 'not ended yet: refused' }),
});
export type BulkResubmitPlan = z.infer<typeof bulkResubmitPlanSchema>;

const dryRunOf = <A extends BulkActionKind, P extends z.ZodType>(action: A, plan: P) =>
  z.object({
    dry_run: z.literal(true),
    action: z.literal(action),
    matched: z.number().int(),
    plan,
    sample: z
      .array(z.object({ job_id: z.string(), job_name: z.string(), state: jobStateSchema }))
      .meta({ description: `The newest ${BULK_LIMITS.sample} matching jobs` }),
  });
export const bulkCancelDryRunSchema = dryRunOf('cancel', bulkCancelPlanSchema);
export const bulkResubmitDryRunSchema = dryRunOf('resubmit', bulkResubmitPlanSchema);
export const bulkDryRunSchema = z.discriminatedUnion('action', [
  bulkCancelDryRunSchema,
  bulkResubmitDryRunSchema,
]);
export type BulkDryRun = z.infer<typeof bulkDryRunSchema>;
export type BulkCancelDryRun = z.infer<typeof bulkCancelDryRunSchema>;
export type BulkResubmitDryRun = z.infer<typeof bulkResubmitDryRunSchema>;

export const bulkActionStateSchema = z.enum(['running', 'done', 'stopped']);

export const bulkActionSchema = z.object({
  id: z.string(),
  action: bulkActionKindSchema,
  state: bulkActionStateSchema,
  filter: z
    .record(z.string(), z.unknown())
    .meta({ description: 'The filter as it was given, times in UTC' }),
  matched: z.number().int().meta({ description: 'Jobs matching when the action began' }),
  processed: z.number().int(),
  accepted: z.number().int().meta({
    description: 'Cancel accepted (or the job already was); or submitted again',
  }),
  refused: z.number().int().meta({
    description:
      'Cancel: ended, or gone, before its turn; resubmit: not ended, gone, or refused (the result names why)',
  }),
  created_by: z.string().meta({ description: 'The id of the API key that began it' }),
  created_at: timestamp,
  finished_at: timestamp.nullable(),
});
export type BulkAction = z.infer<typeof bulkActionSchema>;

export const bulkActionsSchema = z.object({ items: z.array(bulkActionSchema) });

/** Columns of GET /v1/client/bulk-actions/{id}/results, a CSV file with one row per job. */
export const BULK_RESULT_COLUMNS = ['job_id', 'job_name', 'state_before', 'result', 'message'];

const bulkAction = bulkActionSchema.meta({ id: 'BulkAction' });
const oneAction = {
  params: z.object({ id: z.string().meta({ description: 'The bulk action’s id' }) }),
} as const;
const noBulkAction = failure('No such bulk action in this API key’s project');

export const bulkActionOperations = defineOperations({
  startBulkAction: {
    id: 'startBulkAction',
    method: 'post',
    path: '/v1/client/bulk-actions',
    role: 'operator',
    summary: `Cancel, or submit again, every job a filter matches, up to ${BULK_LIMITS.maxJobs}: a dry run first, then in the service, in batches (extension)`,
    body: jsonBody(bulkActionRequestSchema),
    answers: {
      200: ok(bulkDryRunSchema, 'A dry run: what it would do, nothing done'),
      202: ok(bulkAction, 'Begun: follow it at /v1/client/bulk-actions/{id}'),
      400: failure(`A bad body, or a filter matching no job or more than ${BULK_LIMITS.maxJobs}`),
      ...errors(401, 429),
    },
  },
  listBulkActions: {
    id: 'listBulkActions',
    method: 'get',
    path: '/v1/client/bulk-actions',
    role: 'viewer',
    summary: `The project's latest ${BULK_LIMITS.listed} bulk actions, newest first (extension)`,
    answers: { 200: ok(bulkActionsSchema, 'Newest first'), ...errors(401, 429) },
  },
  getBulkAction: {
    ...oneAction,
    id: 'getBulkAction',
    method: 'get',
    path: '/v1/client/bulk-actions/{id}',
    role: 'viewer',
    summary: 'A bulk action and how far it went (extension)',
    answers: { 200: ok(bulkAction, 'As it is now'), ...errors(401, 429), 404: noBulkAction },
  },
  stopBulkAction: {
    ...oneAction,
    id: 'stopBulkAction',
    method: 'post',
    path: '/v1/client/bulk-actions/{id}/stop',
    role: 'operator',
    summary: 'Stop a running bulk action within ten cancels (extension)',
    answers: {
      200: ok(bulkAction, 'Stopped'),
      ...errors(401, 429),
      404: noBulkAction,
      409: failure('It is not running'),
    },
  },
  bulkActionResults: {
    ...oneAction,
    id: 'bulkActionResults',
    method: 'get',
    path: '/v1/client/bulk-actions/{id}/results',
    role: 'viewer',
    summary: 'What the bulk action did to each job it reached, as a CSV file (extension)',
    answers: {
      200: {
        description: `One row per job, newest first; columns ${BULK_RESULT_COLUMNS.join(', ')}`,
        content: { 'text/csv': { schema: z.string() } },
      },
      ...errors(401, 429),
      404: noBulkAction,
    },
  },
});
