import type { Kysely } from 'kysely';
import type { AuditAction } from '../../../contract';
import type { AuditEntry, AuditFilter, AuditStore, PruneBatch } from '../../jobs/ports';
import type { Database } from '../schema';

/** Rows a statement: 8 parameters each stays far below SQLite's limit on bound parameters. */
const ROWS_PER_STATEMENT = 100;

export class SqlAuditStore implements AuditStore {
  constructor(private readonly db: Kysely<Database>) {}

  async append(entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map((entry) => ({
      id: entry.id,
      project: entry.project,
      at: entry.at,
      actor: entry.actor,
      address: entry.address,
      action: entry.action,
      target: entry.target,
      detail_json: JSON.stringify(entry.detail),
    }));
    await this.db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        await trx
          .insertInto('audit_events')
          .values(rows.slice(start, start + ROWS_PER_STATEMENT))
          .execute();
      }
    });
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
