import type { Kysely } from 'kysely';
import type { QueueControlChangeParams, QueueControlStore } from '../../../jobs/ports';
import type { Database } from '../../schema';

/** Queues' pause and slot limit as operators set them: one small table every instance reads. */
export class SqlQueueControlStore implements QueueControlStore {
  constructor(private readonly db: Kysely<Database>) {}

  async register(
    queues: readonly { ref: string; paused: boolean; maxRunning: number }[],
    now: number,
  ) {
    if (queues.length === 0) return;
    await this.db
      .insertInto('queue_controls')
      .values(
        queues.map(({ ref, paused, maxRunning }) => ({
          ref,
          paused: paused ? 1 : 0,
          paused_reason: null,
          max_running: null,
          changed_at: null,
          changed_by: null,
          configured_paused: paused ? 1 : 0,
          configured_max_running: maxRunning,
        })),
      )
      .onConflict((oc) =>
        oc
          .column('ref')
          .doUpdateSet((eb) => ({
            paused: eb.ref('excluded.paused'),
            paused_reason: null,
            max_running: null,
            changed_at: now,
            changed_by: 'configuration',
            configured_paused: eb.ref('excluded.configured_paused'),
            configured_max_running: eb.ref('excluded.configured_max_running'),
          }))
          .where((eb) =>
            eb.or([
              eb('queue_controls.configured_paused', '<>', eb.ref('excluded.configured_paused')),
              eb(
                'queue_controls.configured_max_running',
                '<>',
                eb.ref('excluded.configured_max_running'),
              ),
            ]),
          ),
      )
      .execute();
  }

  async controls() {
    const rows = await this.db.selectFrom('queue_controls').selectAll().execute();
    return rows.map((row) => ({
      ref: row.ref,
      paused: row.paused === 1,
      pausedReason: row.paused_reason,
      maxRunning: row.max_running,
      changed:
        row.changed_at === null || row.changed_by === null
          ? null
          : { at: Number(row.changed_at), by: row.changed_by },
    }));
  }

  async change({ ref, change, by, now }: QueueControlChangeParams) {
    const result = await this.db
      .updateTable('queue_controls')
      .set({
        ...(change.paused !== undefined && {
          paused: change.paused ? 1 : 0,
          paused_reason: change.paused ? change.paused.reason : null,
        }),
        ...(change.maxRunning !== undefined && { max_running: change.maxRunning }),
        changed_at: now,
        changed_by: by,
      })
      .where('ref', '=', ref)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
