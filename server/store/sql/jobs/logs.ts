import type { Insertable, Kysely } from 'kysely';
import type { ContainerLogs, KeptOutput, OutputBudget, OutputSize } from '../../../jobs/model';
import type { JobStore } from '../../../jobs/ports';
import type { Database, JobLogsTable } from '../../schema';
import type { JobTables } from './context';
import { keepWithinBudget } from './output-budget';
import { outputLinesOf, packOutput, unpackOutput, type StoredLine } from './output-codec';

/** The output kept of each ended job. */
export class JobLogRows implements Pick<JobStore, 'getLogs'> {
  constructor(private readonly tables: JobTables) {}

  async getLogs(id: string): Promise<ContainerLogs | undefined> {
    const row = await this.tables.db
      .selectFrom('job_logs')
      .selectAll()
      .where('job_id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const truncated = row.truncated === 1;
    const sizes = sizesOf(row);
    const kept = sizes ? { truncated, sizes } : { truncated };
    if (row.output !== null) return { lines: await unpackOutput(row.output), ...kept };
    // Dropped for the project's budget, or kept before lines were (its text then).
    if (row.lines_json === null) return { lines: [], text: row.text, ...kept };
    return { lines: outputLinesOf(JSON.parse(row.lines_json) as StoredLine[]), ...kept };
  }
}

function sizesOf(row: JobLogsTable): { kept: OutputSize; printed: OutputSize } | undefined {
  const { kept_lines, kept_bytes, printed_lines, printed_bytes } = row;
  if (kept_lines === null || kept_bytes === null || printed_lines === null) return undefined;
  if (printed_bytes === null) return undefined;
  return {
    kept: { lines: Number(kept_lines), bytes: Number(kept_bytes) },
    printed: { lines: Number(printed_lines), bytes: Number(printed_bytes) },
  };
}

/** A job's output ready to store: compressed, with the budget it is kept within. */
export interface PackedOutput {
  values: Omit<Insertable<JobLogsTable>, 'job_id'>;
  budget: OutputBudget;
}

/** Compresses the output (before the transaction, which holds the write lock only for writes). */
export async function packKeptOutput({ logs, budget }: KeptOutput): Promise<PackedOutput> {
  const output = await packOutput(logs.lines);
  const values = {
    text: '',
    truncated: logs.truncated ? 1 : 0,
    lines_json: null,
    output,
    project: budget.project,
    stored_bytes: output.length,
    saved_at: budget.savedAt,
    kept_lines: logs.sizes?.kept.lines ?? null,
    kept_bytes: logs.sizes?.kept.bytes ?? null,
    printed_lines: logs.sizes?.printed.lines ?? null,
    printed_bytes: logs.sizes?.printed.bytes ?? null,
  };
  return { values, budget };
}

/** Keeps the job's output (replacing any kept before), inside the caller's transaction. */
export async function saveLogsWithin(
  trx: Kysely<Database>,
  id: string,
  { values, budget }: PackedOutput,
): Promise<void> {
  const replaced = await trx
    .selectFrom('job_logs')
    .select('stored_bytes')
    .where('job_id', '=', id)
    .executeTakeFirst();
  await trx
    .insertInto('job_logs')
    .values({ job_id: id, ...values })
    .onConflict((oc) => oc.column('job_id').doUpdateSet(values))
    .execute();
  const added = Number(values.stored_bytes) - Number(replaced?.stored_bytes ?? 0);
  await keepWithinBudget(trx, id, added, budget);
}
