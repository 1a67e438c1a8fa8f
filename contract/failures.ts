import { z } from 'zod';
import { bulkFilterSchema } from './bulk-actions';
import { MAX_FILTER_IDS } from './job';
import { defineOperations, errors, ok } from './operation';

/**
 * Extension: a filter's unsuccessful jobs grouped by cause, "17 jobs · exit 1 · error: upstream
 * returned 503": each group with the filter that selects exactly its jobs, for a retry or a look.
 */
export const FAILURE_LIMITS = {
  /**
   * The newest unsuccessful jobs grouped: each is a read of its kept output, so the cost is
   * bounded whatever the filter matches; a group's filter names its jobs by id, within the list's
   * limit of ids.
   */
  examined: MAX_FILTER_IDS,
  /** A cause is cut to this many characters. */
  causeMaxLength: 200,
};

export const failuresQuerySchema = bulkFilterSchema;

const timestamp = z.iso.datetime({ offset: true });

export const failureGroupSchema = z.object({
  count: z.number().int(),
  state: z.enum(['failed', 'timeout', 'error']),
  exit_code: z.number().int().nullable(),
  cause: z.string().nullable().meta({
    description:
      'A failed job’s last line of output (stderr’s if it printed any), or the system note of a timeout or error; null when there is none',
  }),
  cause_from: z.enum(['output', 'note']),
  newest: z.object({ job_id: z.string(), job_name: z.string(), ended_at: timestamp.nullable() }),
  filter: z.record(z.string(), z.unknown()).meta({
    description:
      'The list’s filters that select exactly this group’s jobs (the filter asked, with their ids): for GET /jobs or a bulk action',
  }),
});
export type FailureGroup = z.infer<typeof failureGroupSchema>;

export const failuresSchema = z.object({
  examined: z.number().int().meta({ description: 'Unsuccessful jobs grouped, newest first' }),
  more: z.boolean().meta({
    description: `Whether the filter matches more unsuccessful jobs than the newest ${FAILURE_LIMITS.examined} grouped`,
  }),
  groups: z.array(failureGroupSchema).meta({ description: 'Largest first' }),
});
export type Failures = z.infer<typeof failuresSchema>;

export const failureOperations = defineOperations({
  listFailureGroups: {
    id: 'listFailureGroups',
    method: 'get',
    path: '/v1/client/failures',
    role: 'viewer',
    summary: `The newest ${FAILURE_LIMITS.examined} failed, timed-out and error jobs of a filter, grouped by exit code and cause (extension)`,
    query: failuresQuerySchema,
    answers: { 200: ok(failuresSchema, 'Largest group first'), ...errors(400, 401, 429) },
  },
});
