import { UNFINISHED_STATES } from '../../../../contract';
import type { StoredEnvVar } from '../../../jobs/model';
import type { SealedEnvStore } from '../../ports';
import type { JobTables } from './context';

/** Jobs' sealed env values as stored, for `jobdeck secrets rotate`. */
export class SqlSealedEnvStore implements SealedEnvStore {
  constructor(private readonly tables: JobTables) {}

  /** A page of jobs holding sealed values (a LIKE on the JSON text: rotation is rare, a scan is fine). */
  async jobsWithSealedEnv(afterSeq: number, limit: number) {
    const rows = await this.tables.db
      .selectFrom('jobs')
      .select(['seq', 'id', 'env_json'])
      .where('seq', '>', afterSeq)
      .where('env_json', 'like', '%"sealed":%')
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      seq: r.seq,
      id: r.id,
      envJson: r.env_json,
      env: JSON.parse(r.env_json) as StoredEnvVar[],
    }));
  }

  async replaceEnv(id: string, readJson: string, env: StoredEnvVar[]): Promise<boolean> {
    const result = await this.tables.db
      .updateTable('jobs')
      .set({ env_json: JSON.stringify(env) })
      .where('id', '=', id)
      .where('env_json', '=', readJson)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** By the state index: only waiting and running jobs, however many have finished. */
  async unfinishedSealedEnv() {
    const rows = await this.tables.db
      .selectFrom('jobs')
      .select(['id', 'env_json'])
      .where('state', 'in', UNFINISHED_STATES)
      .where('env_json', 'like', '%"sealed":%')
      .execute();
    return rows.map((r) => ({ id: r.id, env: JSON.parse(r.env_json) as StoredEnvVar[] }));
  }
}
