import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { LabelSelector } from '../../../../contract';
import { childRole, type Job } from '../../../jobs/model';
import type { Database } from '../../schema';

/**
 * One job_labels row per label of each job, inside the insert's transaction, with the state the
 * job was stored in (later moves keep it: migration 031). An array's children are listed under
 * their parent, never in the list: only the parent's labels are indexed.
 */
export async function insertLabelsWithin(
  trx: Kysely<Database>,
  jobs: readonly Pick<Job, 'id' | 'project' | 'labels' | 'array'>[],
  stored: ReadonlyMap<string, { seq: number; state: string }>,
): Promise<void> {
  const rows = jobs.flatMap((job) => {
    if (childRole(job)) return [];
    const { seq, state } = stored.get(job.id)!;
    return Object.entries(job.labels).map(([key, value]) => ({
      job_seq: seq,
      project: job.project,
      key,
      value,
      state,
    }));
  });
  if (rows.length > 0) await trx.insertInto('job_labels').values(rows).execute();
}

/** Whether the job whose sequence number is `seqRef` has the label (job_labels' primary key). */
const hasLabel = (seqRef: string, { key, value }: LabelSelector) =>
  sql<SqlBool>`EXISTS (SELECT 1 FROM job_labels other WHERE other.job_seq = ${sql.ref(seqRef)}
    AND other.key = ${key}${value === undefined ? sql`` : sql` AND other.value = ${value}`})`;

/**
 * Keeps the jobs with every label asked for. Each is an EXISTS on job_labels' primary key
 * (job_seq, key), checked for each job the query passes.
 */
export function withLabels<O>(
  query: SelectQueryBuilder<Database, 'jobs', O>,
  selectors: readonly LabelSelector[],
): SelectQueryBuilder<Database, 'jobs', O> {
  return selectors.reduce(
    (narrowed, selector) => narrowed.where(hasLabel('jobs.seq', selector)),
    query,
  );
}

/**
 * The sequence numbers of the project's jobs with every one of these labels, and in one of these
 * states if given, from job_labels alone: an array's children are not in it, so a count by labels
 * (and states) reads no job row.
 */
export function labelledSeqs(
  db: Kysely<Database>,
  project: string,
  selectors: readonly LabelSelector[],
  states?: readonly string[],
) {
  const [driver, ...others] = selectors;
  if (!driver) throw new Error('labelledSeqs needs a label');
  return others.reduce(
    (narrowed, selector) => narrowed.where(hasLabel('driver.job_seq', selector)),
    db
      .selectFrom('job_labels as driver')
      .select('driver.job_seq')
      .where('driver.project', '=', project)
      .where('driver.key', '=', driver.key)
      .$if(driver.value !== undefined, (q) => q.where('driver.value', '=', driver.value!))
      .$if(states !== undefined, (q) => q.where('driver.state', 'in', states!)),
  );
}
