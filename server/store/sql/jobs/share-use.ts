import { sql } from 'kysely';
import { SLOT_STATES } from '../../../../contract';
import type { RequestFallback } from '../../../jobs/capacity';
import { NO_USAGE, addUsage, usageOfJob, type Usage } from '../../../jobs/fair-share';
import type { JobStore, ShareBucket, WaitReason } from '../../../jobs/ports';
import type { JobTables } from './context';
import { requestOfRow } from './placed-claim';

/**
 * Fair share's figures: what each queue's jobs holding a slot ask for now, and its ended
 * attempts' use summed per time bucket (migration 041), a few rows per queue however long the
 * history.
 */
export class ShareUseRows implements Pick<
  JobStore,
  'shareUse' | 'addShareUse' | 'waitingByReason'
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

  async waitingByReason(now: number) {
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
        eb.fn.countAll<number>().as('count'),
      ])
      .where('state', '=', 'runnable')
      .where('array_size', 'is', null)
      .groupBy(['queue', 'reason'])
      .execute();
    return rows.map((r) => ({
      queue: r.queue,
      reason: r.reason as WaitReason,
      count: Number(r.count),
    }));
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
