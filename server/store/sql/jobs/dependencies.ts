import type { Kysely } from 'kysely';
import { FINAL_STATES, type DependencyType, type JobState } from '../../../../contract';
import type { Job } from '../../../jobs/model';
import type { JobStore } from '../../../jobs/ports';
import type { Database } from '../../schema';
import type { JobTables } from './context';
import { toJob } from './rows';

/**
 * Records new jobs' dependencies inside the caller's transaction (the one inserting the jobs),
 * with the end of each job named that ended already: migration 032's trigger records the ends
 * to come, this those that came before the edge.
 */
export async function insertDependenciesWithin(
  trx: Kysely<Database>,
  jobs: readonly Pick<Job, 'id' | 'dependsOn'>[],
): Promise<void> {
  const rows = jobs.flatMap((job) =>
    job.dependsOn.map(({ jobId, type }) => ({ depends_on: jobId, job_id: job.id, type })),
  );
  if (rows.length === 0) return;
  await trx.insertInto('job_dependencies').values(rows).execute();
  await trx
    .updateTable('job_dependencies')
    .set((eb) => ({
      ended_state: eb
        .selectFrom('jobs')
        .select('jobs.state')
        .whereRef('jobs.id', '=', 'job_dependencies.depends_on'),
    }))
    .where('job_id', 'in', [...new Set(rows.map((row) => row.job_id))])
    .where(
      'depends_on',
      'in',
      trx
        .selectFrom('jobs')
        .select('id')
        .where('id', 'in', [...new Set(rows.map((row) => row.depends_on))])
        .where('state', 'in', FINAL_STATES),
    )
    .execute();
}

type DependencyReads = Pick<
  JobStore,
  'jobsAwaitingDependencies' | 'jobSummaries' | 'dependencyEnds' | 'dependents'
>;

/** The jobs that wait for others, what they wait for, and what waits for a job. */
export class JobDependencyRows implements DependencyReads {
  constructor(private readonly tables: JobTables) {}

  async jobsAwaitingDependencies() {
    const rows = await this.tables.db
      .selectFrom('jobs')
      .selectAll()
      .where('state', '=', 'pending')
      .where('depends_json', 'is not', null)
      .orderBy('seq')
      .execute();
    return rows.map(toJob);
  }

  async jobSummaries(ids: readonly string[]) {
    if (ids.length === 0) return [];
    const rows = await this.tables.db
      .selectFrom('jobs')
      .select(['id', 'project', 'name', 'state'])
      .where('id', 'in', ids)
      .execute();
    return rows.map((row) => ({ ...row, state: row.state as JobState }));
  }

  async dependencyEnds(jobIds: readonly string[]) {
    if (jobIds.length === 0) return [];
    const rows = await this.tables.db
      .selectFrom('job_dependencies')
      .select(['job_id', 'depends_on', 'ended_state'])
      .where('job_id', 'in', jobIds)
      .where('ended_state', 'is not', null)
      .execute();
    return rows.map((row) => ({
      jobId: row.job_id,
      dependsOn: row.depends_on,
      state: row.ended_state as JobState,
    }));
  }

  async dependents(id: string, limit: number) {
    const { db } = this.tables;
    const [rows, total] = await Promise.all([
      db
        .selectFrom('job_dependencies')
        .innerJoin('jobs', 'jobs.id', 'job_dependencies.job_id')
        .select(['jobs.id', 'jobs.project', 'jobs.name', 'jobs.state', 'job_dependencies.type'])
        .where('job_dependencies.depends_on', '=', id)
        .orderBy('jobs.seq')
        .limit(limit)
        .execute(),
      db
        .selectFrom('job_dependencies')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('depends_on', '=', id)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      items: rows.map((row) => ({
        ...row,
        state: row.state as JobState,
        type: row.type as DependencyType,
      })),
      total: Number(total.count),
    };
  }
}
