import { sql } from 'kysely';
import type { AttemptUsage, RunUsage } from '../../../jobs/model';
import type { JobStore } from '../../../jobs/ports';
import type { JobUsageTable } from '../../schema';
import type { JobTables } from './context';

/** Each attempt's usage: one row per attempt, rewritten by every sample. */
export class JobUsageRows implements Pick<JobStore, 'recordUsage' | 'usage' | 'recentRuns'> {
  constructor(private readonly tables: JobTables) {}

  async recordUsage(jobId: string, usage: Omit<AttemptUsage, 'samples'>): Promise<void> {
    const row = {
      peak_memory_bytes: usage.peakMemoryBytes,
      peak_exact: usage.peakExact ? 1 : 0,
      cpu_nanos: usage.cpuNanos,
      memory_limit_bytes: usage.memoryLimitBytes,
      cpus: usage.cpus,
      sampled_at: usage.sampledAt,
    };
    await this.tables.db
      .insertInto('job_usage')
      .values({ job_id: jobId, attempt: usage.attempt, samples: 1, ...row })
      .onConflict((oc) =>
        oc.columns(['job_id', 'attempt']).doUpdateSet({
          ...row,
          // A sample never lowers the peak: a later one may be smaller, or the engine's own peak
          // (cgroup v1) may be gone with a container re-created by a restart.
          peak_memory_bytes: sql<number>`CASE WHEN excluded.peak_memory_bytes > job_usage.peak_memory_bytes THEN excluded.peak_memory_bytes ELSE job_usage.peak_memory_bytes END`,
          peak_exact: sql<number>`CASE WHEN excluded.peak_memory_bytes >= job_usage.peak_memory_bytes THEN excluded.peak_exact ELSE job_usage.peak_exact END`,
          cpu_nanos: sql<number>`CASE WHEN excluded.cpu_nanos > job_usage.cpu_nanos THEN excluded.cpu_nanos ELSE job_usage.cpu_nanos END`,
          samples: sql<number>`job_usage.samples + 1`,
        }),
      )
      .execute();
  }

  async usage(jobId: string): Promise<AttemptUsage[]> {
    const rows = await this.tables.db
      .selectFrom('job_usage')
      .selectAll()
      .where('job_id', '=', jobId)
      .orderBy('attempt')
      .execute();
    return rows.map(toUsage);
  }

  /**
   * Among the definition's newest `scan` jobs (migration 042's index, newest first), the
   * attempts that ended with figures, newest first, at most `limit`. An attempt's times are its
   * record's (jobs with retries), else its job's.
   */
  async recentRuns(definition: string, limit: number, scan: number): Promise<RunUsage[]> {
    const { db } = this.tables;
    const newest = db
      .selectFrom('jobs')
      .select(['id', 'attempt', 'started_at', 'finished_at'])
      .where('definition', '=', definition)
      .orderBy('seq', 'desc')
      .limit(scan)
      .as('j');
    const rows = await db
      .selectFrom(newest)
      .innerJoin('job_usage as u', 'u.job_id', 'j.id')
      .leftJoin('job_attempts as a', (join) =>
        join.onRef('a.job_id', '=', 'u.job_id').onRef('a.attempt', '=', 'u.attempt'),
      )
      .select([
        'u.peak_memory_bytes',
        'u.memory_limit_bytes',
        'u.cpu_nanos',
        'u.cpus',
        'a.job_id as recorded',
        'a.started_at as attempt_started_at',
        'a.finished_at as attempt_finished_at',
        'j.started_at',
        'j.finished_at',
      ])
      .where((eb) =>
        eb.or([
          eb('a.job_id', 'is not', null),
          eb.and([eb('j.attempt', '=', eb.ref('u.attempt')), eb('j.finished_at', 'is not', null)]),
        ]),
      )
      .orderBy('u.sampled_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => {
      const [started, finished] =
        row.recorded === null
          ? [row.started_at, row.finished_at]
          : [row.attempt_started_at, row.attempt_finished_at];
      return {
        peakMemoryBytes: Number(row.peak_memory_bytes),
        memoryLimitBytes: Number(row.memory_limit_bytes),
        cpuNanos: Number(row.cpu_nanos),
        cpus: Number(row.cpus),
        wallMs: started === null || finished === null ? null : Number(finished) - Number(started),
      };
    });
  }
}

function toUsage(row: JobUsageTable): AttemptUsage {
  return {
    attempt: Number(row.attempt),
    peakMemoryBytes: Number(row.peak_memory_bytes),
    peakExact: Number(row.peak_exact) === 1,
    cpuNanos: Number(row.cpu_nanos),
    memoryLimitBytes: Number(row.memory_limit_bytes),
    cpus: Number(row.cpus),
    samples: Number(row.samples),
    sampledAt: Number(row.sampled_at),
  };
}
