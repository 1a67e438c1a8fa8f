import { statSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { submit } from '../../test/support/jobs';
import { startService } from '../../test/support/service';
import { BENCH_SETTINGS } from '../jobdeck-client';
import { percentile, round, sleep } from '../stats';

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
    ...BENCH_SETTINGS,
    engine: {
      type: 'simulated',
      nodes: 10,
      slots_per_node: 50,
      start_ms: { min: 10, max: 50 },
      run_ms: { min: 50, max: 300 },
    },
    max_running: 2000,
    retention: { keep_finished_jobs: plan.keep, prune_every_seconds: 5 },
  });
  const file = join(service.dataDir, 'jobdeck.sqlite');
  try {
    const latencies: number[] = [];
    const samples: (ReturnType<typeof storeSample> & { atSeconds: number })[] = [];
    const submits: Promise<void>[] = [];
    let submitted = 0;
    let failed = 0;
    const begin = Date.now();
    let nextSample = plan.sampleEverySeconds;
    while (Date.now() - begin < plan.seconds * 1000) {
      const elapsed = (Date.now() - begin) / 1000;
      for (const due = Math.floor(elapsed * plan.submitsPerSecond); submitted < due;) {
        submitted += 1;
        const sent = Date.now();
        submits.push(
          submit(service, { job_definition: 'b::true:1', job_queue: 'b::wide' }).then(
            () => void latencies.push(Date.now() - sent),
            () => void (failed += 1),
          ),
        );
      }
      if (elapsed >= nextSample) {
        samples.push({ atSeconds: nextSample, ...storeSample(file) });
        nextSample += plan.sampleEverySeconds;
      }
      await sleep(20);
    }
    await Promise.all(submits);
    // Flat: the samples once retention had begun deleting, the smallest and the largest; a pass
    // deletes every few seconds, so a single sample lands anywhere between two passes.
    const steady = samples.filter((s) => s.atSeconds >= plan.steadyAfterSeconds);
    const range = (values: number[]) => [Math.min(...values), Math.max(...values)];
    return {
      ...plan,
      submitted,
      failed,
      submitMs: {
        p50: round(percentile(latencies, 50), 0),
        p99: round(percentile(latencies, 99), 0),
      },
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
