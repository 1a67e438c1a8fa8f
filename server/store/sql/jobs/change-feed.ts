import type { Kysely } from 'kysely';
import type { JobState } from '../../../../contract';
import type { JobChange, Transition } from '../../../jobs/model';
import type { ChangesAfterParams, JobStore } from '../../../jobs/ports';
import type { Database } from '../../schema';
import { ChangeHorizonTracker } from './change-horizon';
import type { JobTables } from './context';
import { toJob, toTransition } from './rows';

type ChangeFeed = Pick<
  JobStore,
  'transitions' | 'lastChangeSeq' | 'changeHorizon' | 'changesAfter'
>;

/** The recorded transitions: one job's history, and every project's changes for event streams. */
export class JobChangeFeed implements ChangeFeed {
  /** Every instance asks it after each commit of its own and each other instance's signal. */
  private readonly horizon;

  constructor(private readonly tables: JobTables) {
    this.horizon = new ChangeHorizonTracker(tables.db, tables.dialect);
  }

  async transitions(id: string): Promise<Transition[]> {
    const rows = await this.tables.db
      .selectFrom('job_transitions')
      .select(['from_state', 'to_state', 'at', 'note'])
      .where('job_id', '=', id)
      .orderBy('seq')
      .execute();
    return rows.map(toTransition);
  }

  async lastChangeSeq() {
    const row = await this.tables.db
      .selectFrom('job_transitions')
      .select((eb) => eb.fn.max('seq').as('last'))
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  changeHorizon() {
    return this.horizon.look();
  }

  changesAfter(params: ChangesAfterParams): Promise<JobChange[]> {
    return readChanges(this.tables.db, params);
  }
}

/**
 * State changes after `afterSeq` up to `uptoSeq`, oldest first, each with its job as it is now:
 * one project's (event streams) or those into some states, every project's (webhooks).
 */
export async function readChanges(
  db: Kysely<Database>,
  range: {
    afterSeq: number;
    uptoSeq: number;
    limit: number;
    project?: string;
    toStates?: readonly JobState[];
  },
): Promise<JobChange[]> {
  // A cross join, because SQLite keeps its tables in the order written: the range of sequence
  // numbers leads, then each change's job by id. An inner join let it lead with the project's
  // index instead, reading every job of the project for each page (with no statistics, as a
  // store has until ANALYZE). PostgreSQL plans both spellings alike.
  let query = db
    .selectFrom('job_transitions as t')
    .crossJoin('jobs as j')
    .whereRef('j.id', '=', 't.job_id')
    .selectAll('j')
    .select(['t.seq as change_seq', 't.from_state', 't.to_state', 't.at', 't.note'])
    .where('t.seq', '>', range.afterSeq)
    .where('t.seq', '<=', range.uptoSeq);
  if (range.project !== undefined) query = query.where('j.project', '=', range.project);
  if (range.toStates) query = query.where('t.to_state', 'in', range.toStates);
  const rows = await query.orderBy('t.seq').limit(range.limit).execute();
  return rows.map((row) => ({
    seq: Number(row.change_seq),
    transition: toTransition(row),
    job: toJob(row),
  }));
}
