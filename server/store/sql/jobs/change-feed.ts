import type { JobChange, Transition } from '../../../jobs/model';
import type { JobStore } from '../../../jobs/ports';
import type { JobTables } from './context';
import { toJob, toTransition } from './rows';

type ChangeFeed = Pick<
  JobStore,
  'transitions' | 'lastChangeSeq' | 'changeSeqsAfter' | 'changesAfter'
>;

/** The recorded transitions: one job's history, and every project's changes for event streams. */
export class JobChangeFeed implements ChangeFeed {
  constructor(private readonly tables: JobTables) {}

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

  async changeSeqsAfter(afterSeq: number, limit: number) {
    const rows = await this.tables.db
      .selectFrom('job_transitions')
      .select('seq')
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((r) => r.seq);
  }

  async changesAfter(
    project: string,
    afterSeq: number,
    uptoSeq: number,
    limit: number,
  ): Promise<JobChange[]> {
    const rows = await this.tables.db
      .selectFrom('job_transitions as t')
      .innerJoin('jobs as j', 'j.id', 't.job_id')
      .selectAll('j')
      .select(['t.seq as change_seq', 't.from_state', 't.to_state', 't.at', 't.note'])
      .where('j.project', '=', project)
      .where('t.seq', '>', afterSeq)
      .where('t.seq', '<=', uptoSeq)
      .orderBy('t.seq')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      seq: row.change_seq,
      transition: toTransition(row),
      job: toJob(row),
    }));
  }
}
