import type { JobState } from '../../../../contract';
import type { FiringRecord, ScheduleStore, SetPausedParams } from '../../../jobs/ports';
import type { JobAdmission } from './admission';
import { storableNote, type JobTables } from './context';

/** Schedules' shared state and their firings, each firing's job stored in the same transaction. */
export class SqlScheduleStore implements ScheduleStore {
  constructor(
    private readonly tables: JobTables,
    private readonly admission: JobAdmission,
  ) {}

  async register(schedules: readonly { ref: string; paused: boolean }[], now: number) {
    if (schedules.length === 0) return;
    await this.tables.db
      .insertInto('schedules')
      .values(
        schedules.map(({ ref, paused }) => ({
          ref,
          paused: paused ? 1 : 0,
          paused_reason: null,
          last_fired_at: now,
        })),
      )
      .onConflict((oc) => oc.column('ref').doNothing())
      .execute();
  }

  async states() {
    const rows = await this.tables.db.selectFrom('schedules').selectAll().execute();
    return rows.map((row) => ({
      ref: row.ref,
      paused: row.paused === 1,
      pausedReason: row.paused_reason,
      lastFiredAt: Number(row.last_fired_at),
    }));
  }

  async setPaused({ ref, paused, reason, now }: SetPausedParams) {
    const result = await this.tables.db
      .updateTable('schedules')
      .set((eb) => ({
        paused: paused ? 1 : 0,
        paused_reason: paused ? reason : null,
        ...(!paused && {
          last_fired_at: eb
            .case()
            .when('last_fired_at', '<', now)
            .then(now)
            .else(eb.ref('last_fired_at'))
            .end(),
        }),
      }))
      .where('ref', '=', ref)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async lastJob(ref: string, before: number) {
    const row = await this.tables.db
      .selectFrom('schedule_firings')
      .innerJoin('jobs', 'jobs.id', 'schedule_firings.job_id')
      .select(['jobs.id', 'jobs.project', 'jobs.name', 'jobs.state'])
      .where('schedule_firings.schedule', '=', ref)
      .where('schedule_firings.fire_at', '<', before)
      .orderBy('schedule_firings.fire_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && { ...row, state: row.state as JobState };
  }

  async fire({ schedule, fireAt, note, submit }: Parameters<ScheduleStore['fire']>[0]) {
    return this.tables.db.transaction().execute(async (trx) => {
      const recorded = await trx
        .insertInto('schedule_firings')
        .values({
          schedule,
          fire_at: fireAt,
          job_id: submit?.job.id ?? null,
          note: storableNote(this.tables, note),
        })
        .onConflict((oc) => oc.columns(['schedule', 'fire_at']).doNothing())
        .returning('fire_at')
        .executeTakeFirst();
      if (!recorded) return { fired: false as const };
      await trx
        .updateTable('schedules')
        .set({ last_fired_at: fireAt })
        .where('ref', '=', schedule)
        .where('last_fired_at', '<', fireAt)
        .execute();
      const [job] = submit ? await this.admission.writeJobs(trx, [submit]) : [];
      return { fired: true as const, job: job ?? null };
    });
  }

  async recentFirings(ref: string, limit: number): Promise<FiringRecord[]> {
    const rows = await this.tables.db
      .selectFrom('schedule_firings')
      .leftJoin('jobs', 'jobs.id', 'schedule_firings.job_id')
      .select([
        'schedule_firings.fire_at',
        'schedule_firings.note',
        'jobs.id',
        'jobs.project',
        'jobs.name',
        'jobs.state',
      ])
      .where('schedule_firings.schedule', '=', ref)
      .orderBy('schedule_firings.fire_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      fireAt: Number(row.fire_at),
      note: row.note,
      job:
        row.id === null
          ? null
          : { id: row.id, project: row.project!, name: row.name!, state: row.state as JobState },
    }));
  }
}
