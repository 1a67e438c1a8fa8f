import { sql, type Kysely, type Selectable } from 'kysely';
import type { BulkActionKind, JobState } from '../../../contract';
import type {
  BulkActionRecord,
  BulkActionState,
  BulkResult,
  BulkResultRecord,
} from '../../jobs/bulk-action-records';
import type {
  BeginBatchParams,
  BulkActionStore,
  BulkResultsParams,
  FinishBatchParams,
  HeldAction,
  Lease,
} from '../../jobs/ports';
import type { BulkActionResultsTable, BulkActionsTable, Database } from '../schema';

const toRecord = (row: Selectable<BulkActionsTable>): BulkActionRecord => ({
  id: row.id,
  project: row.project,
  action: row.action as BulkActionKind,
  filter: JSON.parse(row.filter_json) as BulkActionRecord['filter'],
  state: row.state as BulkActionState,
  matched: Number(row.matched),
  processed: Number(row.processed),
  accepted: Number(row.accepted),
  refused: Number(row.refused),
  cursorSeq: Number(row.cursor_seq),
  createdBy: row.created_by,
  createdAt: Number(row.created_at),
  finishedAt: row.finished_at === null ? null : Number(row.finished_at),
});

const toRow = (actionId: string, r: BulkResultRecord) => ({
  action_id: actionId,
  job_seq: r.jobSeq,
  job_id: r.jobId,
  job_name: r.jobName,
  state_before: r.stateBefore,
  result: r.result,
  message: r.message,
});

const toResult = (row: Selectable<BulkActionResultsTable>): BulkResultRecord => ({
  jobSeq: Number(row.job_seq),
  jobId: row.job_id,
  jobName: row.job_name,
  stateBefore: row.state_before as JobState,
  result: row.result as BulkResult,
  message: row.message,
});

export class SqlBulkActionStore implements BulkActionStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(action: BulkActionRecord) {
    await this.db
      .insertInto('bulk_actions')
      .values({
        id: action.id,
        project: action.project,
        action: action.action,
        filter_json: JSON.stringify(action.filter),
        state: action.state,
        matched: action.matched,
        cursor_seq: action.cursorSeq,
        created_by: action.createdBy,
        created_at: action.createdAt,
        finished_at: action.finishedAt,
      })
      .execute();
  }

  async get(id: string) {
    const row = await this.db
      .selectFrom('bulk_actions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async list(project: string, limit: number) {
    const rows = await this.db
      .selectFrom('bulk_actions')
      .selectAll()
      .where('project', '=', project)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async claim({ owner, now, leaseUntil }: Lease & { now: number }) {
    // Compare-and-set on the lease: of two instances claiming at once, one takes it.
    for (;;) {
      const free = await this.db
        .selectFrom('bulk_actions')
        .select(['id', 'lease_until'])
        .where('state', '=', 'running')
        .where((eb) => eb.or([eb('lease_until', '<=', now), eb('owner', '=', owner)]))
        .orderBy('created_at')
        .limit(1)
        .executeTakeFirst();
      if (!free) return undefined;
      const taken = await this.db
        .updateTable('bulk_actions')
        .set({ owner, lease_until: leaseUntil })
        .where('id', '=', free.id)
        .where('state', '=', 'running')
        .where('lease_until', '=', free.lease_until)
        .returningAll()
        .executeTakeFirst();
      if (taken) return toRecord(taken);
    }
  }

  async beginBatch({ id, owner, ...batch }: BeginBatchParams) {
    return this.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('bulk_actions')
        .set({ cursor_seq: batch.cursorSeq, lease_until: batch.leaseUntil })
        .where('id', '=', id)
        .where('owner', '=', owner)
        .where('state', '=', 'running')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return false;
      if (batch.pending.length > 0) {
        await trx
          .insertInto('bulk_action_results')
          .values(batch.pending.map((r) => toRow(id, r)))
          .execute();
      }
      return true;
    });
  }

  async heartbeat({ id, owner, leaseUntil }: HeldAction) {
    const row = await this.db
      .updateTable('bulk_actions')
      .set({ lease_until: leaseUntil })
      .where('id', '=', id)
      .where('owner', '=', owner)
      .returning('state')
      .executeTakeFirst();
    return row?.state as BulkActionState | undefined;
  }

  async finishBatch({ id, owner, ...batch }: FinishBatchParams) {
    const { results } = batch;
    const answered = (result: BulkResult) => results.filter((r) => r.result === result).length;
    return this.db.transaction().execute(async (trx) => {
      // One statement decides, so a stop or another holder's claim cannot slip in between: a
      // stop that came during the batch keeps its results (those jobs were cancelled).
      const row = await trx
        .updateTable('bulk_actions')
        .set((eb) => ({
          processed: eb('processed', '+', results.length),
          accepted: eb('accepted', '+', answered('accepted')),
          refused: eb('refused', '+', answered('refused')),
          lease_until: batch.leaseUntil,
          ...(batch.done && {
            state: sql<string>`case when state = 'running' then 'done' else state end`,
            finished_at: sql<number>`case when state = 'running' then ${batch.now} else finished_at end`,
          }),
        }))
        .where('id', '=', id)
        .where('owner', '=', owner)
        .where('state', 'in', ['running', 'stopped'])
        .returning('state')
        .executeTakeFirst();
      if (!row) return undefined;
      for (const r of results) {
        await trx
          .updateTable('bulk_action_results')
          .set({ result: r.result, message: r.message })
          .where('action_id', '=', id)
          .where('job_seq', '=', r.jobSeq)
          .execute();
      }
      if (row.state === 'stopped') {
        // Not reached before the stop: no result to give.
        await trx
          .deleteFrom('bulk_action_results')
          .where('action_id', '=', id)
          .where('result', '=', 'pending')
          .execute();
      }
      return row.state as BulkActionState;
    });
  }

  async pendingResults(id: string) {
    const rows = await this.db
      .selectFrom('bulk_action_results')
      .selectAll()
      .where('action_id', '=', id)
      .where('result', '=', 'pending')
      .orderBy('job_seq', 'desc')
      .execute();
    return rows.map(toResult);
  }

  async release(owner: string) {
    await this.db
      .updateTable('bulk_actions')
      .set({ lease_until: 0 })
      .where('owner', '=', owner)
      .where('state', '=', 'running')
      .execute();
  }

  async stop(id: string, now: number) {
    const stopped = await this.db
      .updateTable('bulk_actions')
      .set({ state: 'stopped', finished_at: now })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(stopped.numUpdatedRows) > 0;
  }

  async results({ id, beforeSeq, limit }: BulkResultsParams) {
    const rows = await this.db
      .selectFrom('bulk_action_results')
      .selectAll()
      .where('action_id', '=', id)
      .where('job_seq', '<', beforeSeq)
      .orderBy('job_seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toResult);
  }
}
