import { sql } from 'kysely';
import type { AttemptUsage } from '../../../jobs/model';
import type { JobStore } from '../../../jobs/ports';
import type { JobUsageTable } from '../../schema';
import type { JobTables } from './context';

/** Each attempt's usage: one row per attempt, rewritten by every sample. */
export class JobUsageRows implements Pick<JobStore, 'recordUsage' | 'usage'> {
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
