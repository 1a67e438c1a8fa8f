import { type Kysely } from 'kysely';
import { FINAL_STATES, type JobState } from '../../../contract';
import type {
  AddCountsParams,
  OutcomeCount,
  RollupRange,
  SeqPage,
  TrendChange,
  TrendMeasure,
  TrendOutcome,
  TrendPeriod,
  TrendStore,
} from '../../jobs/ports';
import type { Database } from '../schema';
import type { StoreDialect } from './dialect';
import { ChangeHorizonTracker } from './jobs/change-horizon';

const CURSOR_ID = 1;

/** The trends rollups: small tables keyed by queue and period, added to a batch at a time. */
export class SqlTrendStore implements TrendStore {
  /** The roller's own: it reads every few seconds, the event streams' feed far more often. */
  private readonly horizon: ChangeHorizonTracker;

  constructor(
    private readonly db: Kysely<Database>,
    dialect: StoreDialect,
  ) {
    this.horizon = new ChangeHorizonTracker(db, dialect);
  }

  async cursor() {
    const row = await this.db
      .selectFrom('trend_cursor')
      .select('seq')
      .where('id', '=', CURSOR_ID)
      .executeTakeFirst();
    return row === undefined ? null : Number(row.seq);
  }

  async startCursor(seq: number) {
    await this.db
      .insertInto('trend_cursor')
      .values({ id: CURSOR_ID, seq })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return (await this.cursor())!;
  }

  async seqBefore(at: number) {
    const bounds = await this.db
      .selectFrom('job_transitions')
      .select((eb) => [eb.fn.min('seq').as('first'), eb.fn.max('seq').as('last')])
      .executeTakeFirst();
    if (bounds?.first == null || bounds.last == null) return 0;
    // Binary search for the first seq whose next change is at or after `at`: about log2(n) reads.
    let low = Number(bounds.first);
    let high = Number(bounds.last) + 1;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      const next = await this.db
        .selectFrom('job_transitions')
        .select(['seq', 'at'])
        .where('seq', '>=', middle)
        .orderBy('seq')
        .limit(1)
        .executeTakeFirstOrThrow();
      if (Number(next.at) >= at) high = middle;
      else low = Number(next.seq) + 1;
    }
    return low - 1;
  }

  async changesAfter({ afterSeq, limit }: SeqPage): Promise<TrendChange[]> {
    const { settled } = await this.horizon.look();
    if (settled <= afterSeq) return [];
    // The page of changes first, then their jobs: joined before the limit, every change up to
    // the horizon read its job, however far past the page (the trends reader's lag: ~9,000 a
    // page of 1,000 in the control-plane step, 67 reads of jobs by id a job).
    const page = this.db
      .selectFrom('job_transitions')
      .select(['seq', 'at', 'to_state', 'job_id'])
      .where('seq', '>', afterSeq)
      .where('seq', '<=', settled)
      .orderBy('seq')
      .limit(limit)
      .as('t');
    const rows = await this.db
      .selectFrom(page)
      // Only a move to a final state reads its job: the others only move the cursor past them.
      .leftJoin('jobs as j', (join) =>
        join.onRef('j.id', '=', 't.job_id').on('t.to_state', 'in', FINAL_STATES),
      )
      .select((eb) => [
        't.seq',
        't.at',
        't.to_state',
        'j.queue',
        'j.created_at',
        'j.schedule_at',
        'j.started_at',
        'j.finished_at',
        eb
          .selectFrom('job_attempts as a')
          .select((inner) => inner.fn.min('a.started_at').as('first'))
          .whereRef('a.job_id', '=', 'j.id')
          .as('first_attempt_started_at'),
      ])
      .orderBy('t.seq')
      .execute();
    return rows.map((row) => {
      const startedAt = nullableNumber(row.started_at);
      const earlier = nullableNumber(row.first_attempt_started_at);
      return {
        seq: Number(row.seq),
        at: Number(row.at),
        ended:
          row.queue === null || row.created_at === null
            ? null
            : {
                queue: row.queue,
                state: row.to_state as JobState,
                waitFrom: Math.max(Number(row.created_at), Number(row.schedule_at ?? 0)),
                firstStartedAt: earlier ?? startedAt,
                startedAt,
                finishedAt: nullableNumber(row.finished_at),
              },
      };
    });
  }

  async addCounts({ from, to, outcomes, durations }: AddCountsParams) {
    return this.db.transaction().execute(async (trx) => {
      // First, so that a second instance with the same batch waits here, then finds it moved.
      const moved = await trx
        .updateTable('trend_cursor')
        .set({ seq: to })
        .where('id', '=', CURSOR_ID)
        .where('seq', '=', from)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return false;
      if (outcomes.length > 0) {
        await trx
          .insertInto('trend_outcomes')
          .values([...outcomes])
          .onConflict((oc) =>
            oc.columns(['queue', 'period', 'start', 'outcome']).doUpdateSet((eb) => ({
              jobs: eb('trend_outcomes.jobs', '+', eb.ref('excluded.jobs')),
            })),
          )
          .execute();
      }
      if (durations.length > 0) {
        await trx
          .insertInto('trend_durations')
          .values([...durations])
          .onConflict((oc) =>
            oc.columns(['queue', 'period', 'start', 'measure', 'bucket']).doUpdateSet((eb) => ({
              jobs: eb('trend_durations.jobs', '+', eb.ref('excluded.jobs')),
            })),
          )
          .execute();
      }
      return true;
    });
  }

  async pruneBefore(period: TrendPeriod, before: number) {
    let deleted = 0;
    for (const table of ['trend_outcomes', 'trend_durations'] as const) {
      const result = await this.db
        .deleteFrom(table)
        .where('period', '=', period)
        .where('start', '<', before)
        .executeTakeFirst();
      deleted += Number(result.numDeletedRows);
    }
    return deleted;
  }

  async outcomes({ queue, period, from }: RollupRange): Promise<OutcomeCount[]> {
    const rows = await this.db
      .selectFrom('trend_outcomes')
      .selectAll()
      .where('queue', '=', queue)
      .where('period', '=', period)
      .where('start', '>=', from)
      .orderBy('start')
      .execute();
    return rows.map((row) => ({
      queue: row.queue,
      period,
      start: Number(row.start),
      outcome: row.outcome as TrendOutcome,
      jobs: Number(row.jobs),
    }));
  }

  async durations({ queue, period, from }: RollupRange) {
    const rows = await this.db
      .selectFrom('trend_durations')
      .select((eb) => ['measure', 'bucket', eb.fn.sum<number>('jobs').as('jobs')])
      .where('queue', '=', queue)
      .where('period', '=', period)
      .where('start', '>=', from)
      .groupBy(['measure', 'bucket'])
      .execute();
    return rows.map((row) => ({
      measure: row.measure as TrendMeasure,
      bucket: Number(row.bucket),
      jobs: Number(row.jobs),
    }));
  }
}

const nullableNumber = (value: number | string | null | undefined) =>
  value === null || value === undefined ? null : Number(value);
