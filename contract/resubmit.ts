import { z } from 'zod';
import { ENV_NAME, IDENTIFIER_MESSAGES } from './identifiers';
import { submitJobSchema } from './submit';

/**
 * Extension: "submit again". A new job from what a finished job ran (its definition, queue,
 * command as run, environment, labels, an array's size), whose sensitive values the service
 * copies from the job it names, sealed: no client ever reads or sends them back.
 */
export const RESUBMIT_LABELS = {
  /** Set on every job submitted again: the job it was made from. */
  source: 'jobdeck/resubmitted-from',
  /** Set on the jobs a bulk resubmit made: the action, so a batch done twice submits once. */
  bulkAction: 'jobdeck/bulk-action',
} as const;

/** What may differ from the job submitted again; every field left out is the job's own. */
export const resubmitJobSchema = submitJobSchema
  .pick({
    name: true,
    job_queue: true,
    container_cmd: true,
    container_env: true,
    schedule_at: true,
    labels: true,
    array: true,
  })
  .partial()
  .extend({
    drop_env: z
      .array(z.string().regex(ENV_NAME, IDENTIFIER_MESSAGES.envName), {
        error: 'must be an array of variable names',
      })
      .max(256, 'must have at most 256 names')
      .optional()
      .meta({ description: 'Variables of the job to leave out (a sensitive one among them)' }),
  })
  .meta({
    description:
      'Each field replaces the job’s own: container_env adds or replaces variables (a sensitive one replaces the kept secret), labels replace the set; left out, the job’s own is used',
  });
export type ResubmitJobRequest = z.infer<typeof resubmitJobSchema>;

export const resubmitJobResultSchema = z.object({
  id: z.string().meta({ description: 'The new job' }),
  resubmitted_from: z.string().meta({ description: 'The job it was made from' }),
  kept_secrets: z
    .array(z.string())
    .meta({ description: 'The sensitive variables whose values were copied from that job' }),
});
export type ResubmitJobResult = z.infer<typeof resubmitJobResultSchema>;
