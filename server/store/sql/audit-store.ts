import type { Kysely } from 'kysely';
import type { AuditAction } from '../../../contract';
import type { AuditEntry, AuditFilter, AuditStore, PruneBatch } from '../../jobs/ports';
import type { Database } from '../schema';
import { placeholders, preparedRows, type Param, type PreparedRows } from './prepared';

/** Rows a statement: 8 parameters each stays far below SQLite's limit on bound parameters. */
const ROWS_PER_STATEMENT = 100;

const auditRow = (entry: AuditEntry) => ({
  id: entry.id,
  project: entry.project,
  at: entry.at,
  actor: entry.actor,
  address: entry.address,
  action: entry.action,
  target: entry.target,
  detail_json: JSON.stringify(entry.detail),
});
type AuditRow = ReturnType<typeof auditRow>;
const AUDIT_COLUMNS = [
  'id',
  'project',
  'at',
  'actor',
  'address',
  'action',
  'target',
  'detail_json',
] as const satisfies readonly (keyof AuditRow)[];

/** Stores audit events inside the caller's transaction: with the change they record, if any. */
export async function appendAuditWithin(
  trx: Kysely<Database>,
  entries: readonly AuditEntry[],
): Promise<void> {
  const rows = entries.map(auditRow);
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    await trx
      .insertInto('audit_events')
      .values(rows.slice(start, start + ROWS_PER_STATEMENT))
      .execute();
  }
}

export class SqlAuditStore implements AuditStore {
  /**
   * Every Job Submit records an event: built and compiled by Kysely anew, a flush's insert (100
   * rows a statement, every 100 ms) cost some 2 % of the service's CPU under submits (perf).
   */
  private readonly insertRows: PreparedRows<AuditRow, unknown>;

  constructor(private readonly db: Kysely<Database>) {
    this.insertRows = preparedRows(db, (db, rows: Param<AuditRow>[]) =>
      db.insertInto('audit_events').values(rows.map((row) => placeholders(row, AUDIT_COLUMNS))),
    );
  }

  async append(entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map(auditRow);
    await this.db.transaction().execute((trx) => this.insertRows(trx, rows));
  }

  async list(project: string, filter: AuditFilter) {
    let query = this.db
      .selectFrom('audit_events')
      .selectAll()
      .where('project', '=', project)
      .orderBy('seq', 'desc')
      .limit(filter.limit);
    if (filter.actor !== undefined) query = query.where('actor', '=', filter.actor);
    if (filter.action !== undefined) query = query.where('action', '=', filter.action);
    if (filter.target !== undefined) query = query.where('target', '=', filter.target);
    if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
    if (filter.until !== undefined) query = query.where('at', '<', filter.until);
    if (filter.beforeSeq !== undefined) query = query.where('seq', '<', filter.beforeSeq);
    const rows = await query.execute();
    return rows.map((row) => ({
      seq: Number(row.seq),
      id: row.id,
      project: row.project,
      at: Number(row.at),
      actor: row.actor,
      address: row.address,
      action: row.action as AuditAction,
      target: row.target,
      detail: JSON.parse(row.detail_json) as Record<string, unknown>,
    }));
  }

  async prune({ before, limit }: PruneBatch): Promise<number> {
    const result = await this.db
      .deleteFrom('audit_events')
      .where('seq', 'in', (eb) =>
        eb
          .selectFrom('audit_events')
          .select('seq')
          .where('at', '<', before)
          .orderBy('seq')
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
