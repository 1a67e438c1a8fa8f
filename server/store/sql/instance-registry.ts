import type { Kysely } from 'kysely';
import type { InstanceRecord, InstanceRegistry } from '../../jobs/ports';
import type { Database } from '../schema';

export class SqlInstanceRegistry implements InstanceRegistry {
  constructor(private readonly db: Kysely<Database>) {}

  async register(instance: InstanceRecord): Promise<void> {
    await this.db
      .insertInto('instances')
      .values({
        id: instance.id,
        host: instance.host,
        pid: instance.pid,
        started_at: instance.startedAt,
        heartbeat_at: instance.heartbeatAt,
        stopped_at: instance.stoppedAt,
      })
      .execute();
  }

  async heartbeat(id: string, at: number): Promise<void> {
    await this.db.updateTable('instances').set({ heartbeat_at: at }).where('id', '=', id).execute();
  }

  async leave(id: string, at: number): Promise<void> {
    await this.db.updateTable('instances').set({ stopped_at: at }).where('id', '=', id).execute();
  }

  async list(): Promise<InstanceRecord[]> {
    const rows = await this.db.selectFrom('instances').selectAll().execute();
    return rows.map((r) => ({
      id: r.id,
      host: r.host,
      pid: r.pid,
      startedAt: r.started_at,
      heartbeatAt: r.heartbeat_at,
      stoppedAt: r.stopped_at,
    }));
  }

  async forget(before: number): Promise<void> {
    await this.db.deleteFrom('instances').where('heartbeat_at', '<', before).execute();
  }
}
