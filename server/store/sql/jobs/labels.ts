import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { LabelSelector } from '../../../../contract';
import { childRole, type Job } from '../../../jobs/model';
import type { Database } from '../../schema';

/**
 * One job_labels row per label of each job, inside the insert's transaction. An array's children
 * are listed under their parent, never in the list: only the parent's labels are indexed.
 */
export async function insertLabelsWithin(
  trx: Kysely<Database>,
  jobs: readonly Pick<Job, 'id' | 'project' | 'labels' | 'array'>[],
  seqById: ReadonlyMap<string, number>,
): Promise<void> {
  const rows = jobs.flatMap((job) =>
    childRole(job)
      ? []
      : Object.entries(job.labels).map(([key, value]) => ({
          job_seq: seqById.get(job.id)!,
          project: job.project,
          key,
          value,
        })),
  );
  if (rows.length > 0) await trx.insertInto('job_labels').values(rows).execute();
}

/**
 * Keeps the jobs with every label asked for. Each is an EXISTS on job_labels' primary key
 * (job_seq, key): the list still walks jobs newest first by its own index and stops at its page,
 * checking a label per job it passes.
 */
export function withLabels<O>(
  query: SelectQueryBuilder<Database, 'jobs', O>,
  selectors: readonly LabelSelector[],
): SelectQueryBuilder<Database, 'jobs', O> {
  return selectors.reduce(
    (narrowed, { key, value }) =>
      narrowed.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('job_labels')
            .select('job_labels.job_seq')
            .whereRef('job_labels.job_seq', '=', 'jobs.seq')
            .where('job_labels.key', '=', key)
            .$if(value !== undefined, (q) => q.where('job_labels.value', '=', value!)),
        ),
      ),
    query,
  );
}
