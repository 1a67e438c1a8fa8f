import type { Kysely } from 'kysely';
import { FINAL_STATES, type DependencyType, type JobState } from '../../../../contract';
import type { Job } from '../../../jobs/model';
import type { JobStore } from '../../../jobs/ports';
import type { Database } from '../../schema';
import type { JobTables } from './context';
import { toJob } from './rows';

/** A new job and the ends its submit read of the jobs it waits for (Admission.dependencyEnds). */
export interface DependentInsert {
  job: Pick<Job, 'id' | 'dependsOn'>;
  ends: ReadonlyMap<string, JobState> | undefined;
}

/** A job waited for, not ended as the submit checked it, is no longer stored: nothing is. */
export class DependencyGone extends Error {
  constructor(readonly dependsOn: string) {
    super(`job ${dependsOn}, waited for, is no longer stored`);
  }
}

/**
 * Records new jobs' dependencies inside the caller's transaction (the one inserting the jobs),
 * with the end of each job named that ended already: the one the submit read (retention may
 * have deleted the job since), else the one stored now. Migration 032's trigger records the
 * ends to come. `locksRowsRead`: the dialect's (StoreDialect).
 */
export async function insertDependenciesWithin(
  trx: Kysely<Database>,
  inserts: readonly DependentInsert[],
  locksRowsRead: boolean,
): Promise<void> {
  await refuseGoneWithin(trx, inserts, locksRowsRead);
  const rows = inserts.flatMap(({ job, ends }) =>
    job.dependsOn.map(({ jobId, type }) => ({
      depends_on: jobId,
      job_id: job.id,
      type,
      ended_state: ends?.get(jobId) ?? null,
    })),
  );
  if (rows.length === 0) return;
  await trx.insertInto('job_dependencies').values(rows).execute();
  const unended = rows.filter((row) => row.ended_state === null);
  if (unended.length === 0) return;
  await trx
    .updateTable('job_dependencies')
    .set((eb) => ({
      ended_state: eb
        .selectFrom('jobs')
        .select('jobs.state')
        .whereRef('jobs.id', '=', 'job_dependencies.depends_on'),
    }))
    .where('job_id', 'in', [...new Set(unended.map((row) => row.job_id))])
    .where('ended_state', 'is', null)
    .where(
      'depends_on',
      'in',
      trx
        .selectFrom('jobs')
        .select('id')
        .where('id', 'in', [...new Set(unended.map((row) => row.depends_on))])
        .where('state', 'in', FINAL_STATES),
    )
    .execute();
}

/**
 * Throws DependencyGone when a job a submit named without an end (it had not ended as the submit
 * checked it) is no longer stored: it ended and retention deleted it since, and its end is lost
 * with it. On PostgreSQL the rows read stay held until the commit, so that neither a delete nor
 * an end commits between this read and the edges (an end's trigger then sees them); SQLite's
 * write transaction holds every other writer off anyway.
 */
async function refuseGoneWithin(
  trx: Kysely<Database>,
  inserts: readonly DependentInsert[],
  locksRowsRead: boolean,
): Promise<void> {
  const unended = inserts.flatMap(({ job, ends }) =>
    ends === undefined ? [] : job.dependsOn.filter((d) => !ends.has(d.jobId)).map((d) => d.jobId),
  );
  if (unended.length === 0) return;
  const stored = await trx
    .selectFrom('jobs')
    .select('id')
    .where('id', 'in', [...new Set(unended)])
    .$if(locksRowsRead, (query) => query.forShare())
    .execute();
  const present = new Set(stored.map((row) => row.id));
  const gone = unended.find((id) => !present.has(id));
  if (gone !== undefined) throw new DependencyGone(gone);
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
