import type { Kysely } from 'kysely';
import type { Incident, IncidentKind, IncidentStore, PruneBatch } from '../../jobs/ports';
import type { Database } from '../schema';

/** The incident windows: a handful of rows a day, read a range at a time. */
export class SqlIncidentStore implements IncidentStore {
  constructor(private readonly db: Kysely<Database>) {}

  async open({ kind, queue, startedAt, note }: Omit<Incident, 'endedAt'>) {
    const open = await this.openOnes(kind, queue).select('id').executeTakeFirst();
    if (open) return;
    await this.db
      .insertInto('incidents')
      .values({ kind, queue, started_at: startedAt, ended_at: null, note })
      .execute();
  }

  async close({ kind, queue, at }: { kind: IncidentKind; queue: string | null; at: number }) {
    let update = this.db
      .updateTable('incidents')
      .set({ ended_at: at })
      .where('kind', '=', kind)
      .where('ended_at', 'is', null);
    update = queue === null ? update.where('queue', 'is', null) : update.where('queue', '=', queue);
    await update.execute();
  }

  async overlapping({ queue, from, to }: { queue: string; from: number; to: number }) {
    const rows = await this.db
      .selectFrom('incidents')
      .selectAll()
      .where((eb) => eb.or([eb('queue', '=', queue), eb('queue', 'is', null)]))
      .where('started_at', '<=', to)
      .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>=', from)]))
      .orderBy('started_at')
      .orderBy('id')
      .execute();
    return rows.map((row): Incident => ({
      kind: row.kind as IncidentKind,
      queue: row.queue,
      startedAt: Number(row.started_at),
      endedAt: row.ended_at === null ? null : Number(row.ended_at),
      note: row.note,
    }));
  }

  async pruneEnded({ before, limit }: PruneBatch) {
    const ended = this.db
      .selectFrom('incidents')
      .select('id')
      .where('ended_at', '<', before)
      .limit(limit);
    const gone = await this.db.deleteFrom('incidents').where('id', 'in', ended).executeTakeFirst();
    return Number(gone.numDeletedRows);
  }

  private openOnes(kind: IncidentKind, queue: string | null) {
    const open = this.db
      .selectFrom('incidents')
      .where('kind', '=', kind)
      .where('ended_at', 'is', null);
    return queue === null ? open.where('queue', 'is', null) : open.where('queue', '=', queue);
  }
}
