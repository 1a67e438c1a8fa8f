import { round } from './stats';

type Query = (text: string, values?: unknown[]) => Promise<Record<string, string | null>[]>;

/** `jobs`' row updates and its indexes' scans, as PostgreSQL's statistics count them. */
interface JobsCounters {
  updates: number;
  hotUpdates: number;
  scans: Map<string, number>;
}

export async function jobsCounters(query: Query): Promise<JobsCounters> {
  const [table] = await query(
    "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'jobs'",
  );
  const indexes = await query(
    "SELECT indexrelname, idx_scan FROM pg_stat_user_indexes WHERE relname = 'jobs'",
  );
  return {
    updates: Number(table!.n_tup_upd),
    hotUpdates: Number(table!.n_tup_hot_upd),
    scans: new Map(indexes.map((row) => [String(row.indexrelname), Number(row.idx_scan)])),
  };
}

/**
 * What a run wrote to `jobs` and read through its indexes (issue 48: each update that is not
 * HOT writes a new entry into every index): updates a job, the share of them HOT, each index's
 * scans a job. The statistics reach the view when a backend flushes them (at a commit, at most
 * once a second): a close figure, not an exact one.
 */
export function jobsWrites(before: JobsCounters, after: JobsCounters, jobs: number) {
  const updates = after.updates - before.updates;
  return {
    updatesPerJob: round(updates / jobs, 2),
    hotPercent:
      updates > 0 ? round(((after.hotUpdates - before.hotUpdates) / updates) * 100, 0) : 0,
    indexScansPerJob: [...after.scans]
      .map(([index, scans]) => ({
        index,
        perJob: round((scans - (before.scans.get(index) ?? 0)) / jobs, 2),
      }))
      .sort((a, b) => b.perJob - a.perJob),
  };
}
