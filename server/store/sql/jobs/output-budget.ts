import { sql, type Kysely } from 'kysely';
import type { OutputBudget } from '../../../jobs/model';
import type { Database } from '../../schema';

/** Rows looked at per step while dropping: a budget is passed by a few outputs at a time. */
const DROP_BATCH = 100;

/**
 * Adds `bytes` (negative: takes them off) to the project's stored output, in the writing
 * connection's shard (the column's default, migration 049): transactions of different
 * connections then wait on no shared row.
 */
export async function addToProject(trx: Kysely<Database>, project: string, bytes: number) {
  await trx
    .insertInto('project_output')
    .values({ project, stored_bytes: bytes })
    .onConflict((oc) =>
      oc
        .columns(['project', 'shard'])
        .doUpdateSet((eb) => ({ stored_bytes: eb('project_output.stored_bytes', '+', bytes) })),
    )
    .execute();
}

/** The project's stored output, its shards summed, as this transaction sees it. */
async function projectTotal(trx: Kysely<Database>, project: string) {
  const { total } = await trx
    .selectFrom('project_output')
    .select((eb) => eb.fn.sum<number | string>('stored_bytes').as('total'))
    .where('project', '=', project)
    .executeTakeFirstOrThrow();
  return Number(total);
}

/**
 * Counts `addedBytes` (the output just kept, less what it replaced) against the project's budget
 * and keeps its stored outputs within it: while they take more, the outputs kept the longest ago
 * are dropped (all of each: a cut one would be neither the start nor the end of what was
 * printed), never those just kept (`keptIds`). A dropped output leaves its row, with what the
 * job printed, so that an answer can say nothing of it was kept. The total is a few rows of its
 * own (migrations 015, 049), not a sum over every output, so keeping one costs the same at any
 * store size. Outputs kept at once by other connections are not seen until they commit: the
 * budget can be passed by them until the project's next keep drops the excess.
 */
export async function keepWithinBudget(
  trx: Kysely<Database>,
  keptIds: readonly string[],
  addedBytes: number,
  budget: OutputBudget,
): Promise<void> {
  await addToProject(trx, budget.project, addedBytes);
  let excess = (await projectTotal(trx, budget.project)) - budget.maxStoredBytes;
  while (excess > 0) {
    const oldest = await trx
      .selectFrom('job_logs')
      .select(['job_id', 'stored_bytes'])
      .where('project', '=', budget.project)
      // A literal, not a parameter: so both databases can use the partial index (migration 015).
      .where('stored_bytes', '>', sql.lit(0))
      .where('job_id', 'not in', keptIds)
      .orderBy('saved_at')
      .orderBy('job_id')
      .limit(DROP_BATCH)
      .execute();
    const dropped: string[] = [];
    let droppedBytes = 0;
    for (const row of oldest) {
      if (droppedBytes >= excess) break;
      dropped.push(row.job_id);
      droppedBytes += Number(row.stored_bytes);
    }
    if (dropped.length === 0) return; // only the outputs just kept are left
    excess -= droppedBytes;
    await addToProject(trx, budget.project, -droppedBytes);
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
