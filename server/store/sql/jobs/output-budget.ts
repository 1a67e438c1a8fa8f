import type { Kysely } from 'kysely';
import type { OutputBudget } from '../../../jobs/ports';
import type { Database } from '../../schema';

/** Rows looked at per step while dropping: a budget is passed by a few outputs at a time. */
const DROP_BATCH = 100;

/**
 * Keeps a project's stored outputs within its budget: while they take more, the outputs kept
 * the longest ago are dropped (all of each: a cut one would be neither the start nor the end of
 * what was printed), never the one just kept (`keptId`). A dropped output leaves its row, with
 * what the job printed, so that an answer can say nothing of it was kept.
 */
export async function keepWithinBudget(
  trx: Kysely<Database>,
  keptId: string,
  budget: OutputBudget,
): Promise<void> {
  const { total } = await trx
    .selectFrom('job_logs')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('stored_bytes'), eb.lit(0)).as('total'))
    .where('project', '=', budget.project)
    .executeTakeFirstOrThrow();
  let excess = Number(total) - budget.maxStoredBytes;
  while (excess > 0) {
    const oldest = await trx
      .selectFrom('job_logs')
      .select(['job_id', 'stored_bytes'])
      .where('project', '=', budget.project)
      .where('stored_bytes', '>', 0)
      .where('job_id', '!=', keptId)
      .orderBy('saved_at')
      .orderBy('job_id')
      .limit(DROP_BATCH)
      .execute();
    const dropped: string[] = [];
    for (const row of oldest) {
      if (excess <= 0) break;
      dropped.push(row.job_id);
      excess -= Number(row.stored_bytes);
    }
    if (dropped.length === 0) return; // only the output just kept is left
    await trx
      .updateTable('job_logs')
      .set({
        output: null,
        lines_json: null,
        text: '',
        truncated: 1,
        stored_bytes: 0,
        kept_lines: 0,
        kept_bytes: 0,
      })
      .where('job_id', 'in', dropped)
      .execute();
  }
}
