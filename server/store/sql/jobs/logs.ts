import type { ContainerLogs, OutputLine, OutputStream } from '../../../jobs/model';
import type { JobStore } from '../../../jobs/ports';
import type { JobTables } from './context';

/** A stored line: `[stream, at, text]`, the keys of an object left out of every line. */
type StoredLine = [OutputStream, string, string];

/** The output kept of each ended job. */
export class JobLogRows implements Pick<JobStore, 'saveLogs' | 'getLogs'> {
  constructor(private readonly tables: JobTables) {}

  async saveLogs(id: string, logs: ContainerLogs) {
    const stored: StoredLine[] = logs.lines.map((l) => [l.stream, l.at, l.text]);
    const values = {
      text: '',
      truncated: logs.truncated ? 1 : 0,
      lines_json: this.tables.dialect.storableText(JSON.stringify(stored)),
    };
    await this.tables.db
      .insertInto('job_logs')
      .values({ job_id: id, ...values })
      .onConflict((oc) => oc.column('job_id').doUpdateSet(values))
      .execute();
  }

  async getLogs(id: string): Promise<ContainerLogs | undefined> {
    const row = await this.tables.db
      .selectFrom('job_logs')
      .selectAll()
      .where('job_id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const truncated = row.truncated === 1;
    if (row.lines_json === null) return { lines: [], text: row.text, truncated };
    const lines = (JSON.parse(row.lines_json) as StoredLine[]).map(
      ([stream, at, text]): OutputLine => ({ stream, at, text }),
    );
    return { lines, truncated };
  }
}
