import { statSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { startService } from '../../test/support/service';
import { round } from '../stats';
import { QUICK_JOBS_SETTINGS, submitSteadily } from './steady-load';

export interface SoakPlan {
  seconds: number;
  submitsPerSecond: number;
  /**
   * The queue's retention (`20s`): short, so that a couple of minutes reach the steady state;
   * `forever` is the control, the same load with nothing deleted.
   */
  keep: string;
  /** Retention's first deletes come this long after the start (the keep time, a pass). */
  steadyAfterSeconds: number;
  sampleEverySeconds: number;
}

/** The store as it stands: what the file system holds, and what the file holds. */
function storeSample(file: string) {
  const bytes = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0; // no log yet, or just truncated
    }
  };
  const db = new SqliteDatabase(file, { readonly: true });
  try {
    const pragma = (name: string) => Number(db.pragma(name, { simple: true }));
    const count = (table: string) =>
      Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).pluck().get());
    return {
      fileMiB: round(bytes(file) / 1024 ** 2, 2),
      walMiB: round(bytes(`${file}-wal`) / 1024 ** 2, 2),
      pages: pragma('page_count'),
      freePages: pragma('freelist_count'),
      jobs: count('jobs'),
      transitions: count('job_transitions'),
    };
  } finally {
    db.close();
  }
}

/**
 * Issue 25's soak: steady submits for a couple of minutes to a service whose finished jobs are
 * kept seconds, on the embedded store and the simulated engine (jobs end in a fraction of a
 * second, nothing waits on containers); the store's size sampled as it goes. With retention the
 * file grows until the first jobs reach their time, then stays flat: the pages each pass frees
 * are given back (incremental vacuum) or taken again by the next jobs.
 */
export async function retentionSoak(plan: SoakPlan) {
  const service = await startService({
    ...QUICK_JOBS_SETTINGS,
    retention: { keep_finished_jobs: plan.keep, prune_every_seconds: 5 },
  });
  const file = join(service.dataDir, 'jobdeck.sqlite');
  try {
    const samples: (ReturnType<typeof storeSample> & { atSeconds: number })[] = [];
    let nextSample = plan.sampleEverySeconds;
    const load = await submitSteadily(
      service,
      { seconds: plan.seconds, perSecond: plan.submitsPerSecond },
      (elapsed) => {
        if (elapsed < nextSample) return;
        samples.push({ atSeconds: nextSample, ...storeSample(file) });
        nextSample += plan.sampleEverySeconds;
      },
    );
    // Flat: the samples once retention had begun deleting, the smallest and the largest; a pass
    // deletes every few seconds, so a single sample lands anywhere between two passes.
    const steady = samples.filter((s) => s.atSeconds >= plan.steadyAfterSeconds);
    const range = (values: number[]) => [Math.min(...values), Math.max(...values)];
    return {
      ...plan,
      submitted: load.submitted,
      failed: load.failed,
      submitMs: load.submitMs,
      samples,
      steady: {
        fromSeconds: plan.steadyAfterSeconds,
        fileMiB: range(steady.map((s) => s.fileMiB)),
        pages: range(steady.map((s) => s.pages)),
        jobs: range(steady.map((s) => s.jobs)),
      },
    };
  } finally {
    await service.stop();
  }
}
