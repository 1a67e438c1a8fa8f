import { sql } from 'kysely';
import { SLOT_STATES, type JobState } from '../../../../contract';
import type { RequestFallback } from '../../../jobs/capacity';
import { NO_USAGE, addUsage, usageOfJob, type Usage } from '../../../jobs/fair-share';
import type { JobStore, ShareBucket, SlotRun, WaitReason } from '../../../jobs/ports';
import type { JobTables } from './context';
import { requestOfRow, type RequestColumn } from './placed-claim';

const REQUEST_COLUMNS: readonly RequestColumn[] = [
  'req_cpus',
  'req_memory_bytes',
  'req_gpus',
  'cpus',
  'memory_bytes',
];

/**
 * Fair share's figures: what each queue's jobs holding a slot ask for now, and its ended
 * attempts' use summed per time bucket (migration 041), a few rows per queue however long the
 * history.
 */
export class ShareUseRows implements Pick<
  JobStore,
  'shareUse' | 'addShareUse' | 'waitingByReason' | 'runsSince'
> {
  constructor(private readonly tables: JobTables) {}

  async shareUse(params: { since: number; fallback: RequestFallback }) {
    const { db } = this.tables;
    const [slotRows, bucketRows] = await Promise.all([
      db
        .selectFrom('jobs')
        .select(['queue', 'req_cpus', 'req_memory_bytes', 'req_gpus', 'cpus', 'memory_bytes'])
        .where('state', 'in', SLOT_STATES)
        .where('array_size', 'is', null)
        .execute(),
      db.selectFrom('share_use').selectAll().where('bucket_start', '>=', params.since).execute(),
    ]);
    const held = new Map<string, Usage>();
    for (const row of slotRows) {
      const use = usageOfJob(requestOfRow(row, params.fallback));
      held.set(row.queue, addUsage(held.get(row.queue) ?? NO_USAGE, use));
    }
    const buckets: ShareBucket[] = bucketRows.map((row) => ({
      queue: row.queue,
      bucketStart: Number(row.bucket_start),
      use: {
        cpus: Number(row.cpu_seconds),
        memoryBytes: Number(row.memory_byte_seconds),
        gpus: Number(row.gpu_seconds),
        jobs: Number(row.job_seconds),
      },
    }));
    return { held, buckets };
  }

  async waitingByReason(now: number, fallback: RequestFallback) {
    const rows = await this.tables.db
      .selectFrom('jobs')
      .select((eb) => [
        'queue',
        eb
          .case()
          .when('placement_note', 'is not', null)
          .then('room')
          .when('not_before', '>', now)
          .then('backoff')
          .else('slot')
          .end()
          .as('reason'),
        ...REQUEST_COLUMNS,
        eb.fn.countAll<number>().as('count'),
      ])
      .where('state', '=', 'runnable')
      .where('array_size', 'is', null)
      .groupBy(['queue', 'reason', ...REQUEST_COLUMNS])
      .execute();
    return rows.map((r) => ({
      queue: r.queue,
      reason: r.reason as WaitReason,
      count: Number(r.count),
      need: usageOfJob(requestOfRow(r, fallback)),
    }));
  }

  async runsSince(since: number, fallback: RequestFallback) {
    const { db } = this.tables;
    // A job's last attempt is on its row; the earlier ones that ended with a retry, in job_attempts.
    const [last, earlier] = await Promise.all([
      db
        .selectFrom('jobs')
        .select(['queue', 'started_at', 'finished_at', 'state', ...REQUEST_COLUMNS])
        .where('array_size', 'is', null)
        .where('started_at', 'is not', null)
        .where((eb) => eb.or([eb('state', 'in', SLOT_STATES), eb('finished_at', '>=', since)]))
        .execute(),
      db
        .selectFrom('job_attempts as a')
        .innerJoin('jobs', 'jobs.id', 'a.job_id')
        .select([
          'jobs.queue',
          'a.started_at',
          'a.finished_at',
          ...REQUEST_COLUMNS.map((c) => `jobs.${c}` as const),
        ])
        .where('a.retried', '=', 1)
        .where('a.started_at', 'is not', null)
        .where('a.finished_at', '>=', since)
        .execute(),
    ]);
    const runs: SlotRun[] = [];
    for (const row of last) {
      runs.push({
        queue: row.queue,
        startedAt: Number(row.started_at),
        endedAt: SLOT_STATES.includes(row.state as JobState) ? null : Number(row.finished_at),
        use: usageOfJob(requestOfRow(row, fallback)),
      });
    }
    for (const row of earlier) {
      runs.push({
        queue: row.queue,
        startedAt: Number(row.started_at),
        endedAt: Number(row.finished_at),
        use: usageOfJob(requestOfRow(row, fallback)),
      });
    }
    return runs;
  }

  async addShareUse(entries: readonly ShareBucket[], forgetBefore: number) {
    await this.tables.db.transaction().execute(async (trx) => {
      for (const { queue, bucketStart, use } of entries) {
        const row = {
          cpu_seconds: use.cpus,
          memory_byte_seconds: use.memoryBytes,
          gpu_seconds: use.gpus,
          job_seconds: use.jobs,
        };
        await trx
          .insertInto('share_use')
          .values({ queue, bucket_start: bucketStart, ...row })
          .onConflict((oc) =>
            oc.columns(['queue', 'bucket_start']).doUpdateSet({
              cpu_seconds: sql<number>`share_use.cpu_seconds + excluded.cpu_seconds`,
              memory_byte_seconds: sql<number>`share_use.memory_byte_seconds + excluded.memory_byte_seconds`,
              gpu_seconds: sql<number>`share_use.gpu_seconds + excluded.gpu_seconds`,
              job_seconds: sql<number>`share_use.job_seconds + excluded.job_seconds`,
            }),
          )
          .execute();
      }
      await trx.deleteFrom('share_use').where('bucket_start', '<', forgetBefore).execute();
    });
  }
}
