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

/** An ended job's output, ready to keep with the move that ended it. */
export interface KeptRow {
  jobId: string;
  output: PackedOutput;
}

/**
 * Keeps the jobs' outputs (replacing any kept before), inside the caller's transaction: one
 * read of what they replace, one insert for all, then each project's total counted against its
 * budget once.
 */
export async function saveLogsWithin(trx: Kysely<Database>, kept: readonly KeptRow[]) {
  if (kept.length === 0) return;
  const replaced = await trx
    .selectFrom('job_logs')
    .select(['job_id', 'stored_bytes'])
    .where(
      'job_id',
      'in',
      kept.map((k) => k.jobId),
    )
    .execute();
  const replacedBytes = new Map(replaced.map((row) => [row.job_id, Number(row.stored_bytes)]));
  const columns = Object.keys(kept[0]!.output.values) as (keyof PackedOutput['values'])[];
  await trx
    .insertInto('job_logs')
    .values(kept.map(({ jobId, output }) => ({ job_id: jobId, ...output.values })))
    .onConflict((oc) =>
      oc
        .column('job_id')
        .doUpdateSet((eb) =>
          Object.fromEntries(columns.map((column) => [column, eb.ref(`excluded.${column}`)])),
        ),
    )
    .execute();
  const byProject = new Map<string, { ids: string[]; added: number; budget: OutputBudget }>();
  for (const { jobId, output } of kept) {
    const project = byProject.get(output.budget.project) ?? {
      ids: [],
      added: 0,
      budget: output.budget,
    };
    project.ids.push(jobId);
    project.added += Number(output.values.stored_bytes) - (replacedBytes.get(jobId) ?? 0);
    byProject.set(output.budget.project, project);
  }
  for (const { ids, added, budget } of byProject.values()) {
    await keepWithinBudget(trx, ids, added, budget);
  }
}
