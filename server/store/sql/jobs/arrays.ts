import { ARRAY_INDEX_VARIABLE, ARRAY_SIZE_VARIABLE, type JobState } from '../../../../contract';
import type {
  ArrayCounts,
  ArrayChildrenPage,
  ArrayChildrenParams,
  ChildrenMove,
} from '../../../jobs/ports';
import { childRole, parentRole, type Job } from '../../../jobs/model';
import { storableNote, type JobTables } from './context';
import { toJob } from './rows';
import { notFinal } from './not-final';

/** How many parents' plans are kept in memory: those of the arrays running now, and more. */
const PLANS_KEPT = 256;

type Plan = Pick<Job, 'command' | 'env' | 'retry' | 'runOptions'> & { size: number };

/**
 * A child is stored without its command, environment, retry strategy and run options: they are
 * its parent's, read here (once per parent: a parent's plan never changes) and given to every
 * child read from the store, with its index and the array's size as variables.
 */
export class ArrayPlans {
  private readonly plans = new Map<string, Plan>();

  constructor(private readonly tables: JobTables) {}

  async complete(jobs: Job[]): Promise<Job[]> {
    const missing = new Set<string>();
    for (const job of jobs) {
      const parentId = parentOf(job);
      if (parentId !== null && !this.plans.has(parentId)) missing.add(parentId);
    }
    if (missing.size > 0) await this.load([...missing]);
    return jobs.map((job) => this.withPlan(job));
  }

  async completeOne(job: Job | undefined): Promise<Job | undefined> {
    return job && (await this.complete([job]))[0];
  }

  private withPlan(job: Job): Job {
    const parentId = parentOf(job);
    if (parentId === null || job.array === null || !('index' in job.array)) return job;
    const plan = this.plans.get(parentId);
    if (!plan) throw new Error(`job ${job.id}: its array's parent ${parentId} is not stored`);
    return {
      ...job,
      command: plan.command,
      env: [
        ...plan.env,
        { name: ARRAY_INDEX_VARIABLE, value: String(job.array.index) },
        { name: ARRAY_SIZE_VARIABLE, value: String(plan.size) },
      ],
      retry: plan.retry,
      runOptions: plan.runOptions,
    };
  }

  private async load(parentIds: string[]): Promise<void> {
    const rows = await this.tables.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', 'in', parentIds)
      .execute();
    for (const row of rows) {
      const parent = toJob(row);
      const role = parentRole(parent);
      if (!role) continue;
      if (this.plans.size >= PLANS_KEPT) this.plans.delete(this.plans.keys().next().value!);
      const { command, env, retry, runOptions } = parent;
      this.plans.set(parent.id, { command, env, retry, runOptions, size: role.size });
    }
  }
}

const parentOf = (job: Job) => childRole(job)?.parentId ?? null;

/** An array's children: counted, paged, released and cancelled together. */
export class JobArrayRows {
  constructor(private readonly tables: JobTables) {}

  async arrayCounts(parentId: string): Promise<ArrayCounts> {
    const rows = await this.tables.db
      .selectFrom('jobs')
      .select((eb) => ['state', eb.fn.countAll<number>().as('count')])
      .where('array_parent', '=', parentId)
      .groupBy('state')
      .execute();
    return new Map(rows.map((row) => [row.state as JobState, Number(row.count)]));
  }

  async arrayChildIds(parentId: string): Promise<Map<number, string>> {
    const rows = await this.tables.db
      .selectFrom('jobs')
      .select(['array_index', 'id'])
      .where('array_parent', '=', parentId)
      .execute();
    return new Map(rows.map((row) => [row.array_index!, row.id]));
  }

  async arrayChildren({
    parentId,
    states,
    afterIndex,
    limit,
  }: ArrayChildrenParams): Promise<ArrayChildrenPage> {
    let query = this.tables.db
      .selectFrom('jobs')
      .selectAll()
      .where('array_parent', '=', parentId)
      .where('array_index', '>', afterIndex)
      .orderBy('array_index')
      .limit(limit + 1);
    if (states) query = query.where('state', 'in', states);
    const rows = await query.execute();
    return { items: rows.slice(0, limit).map(toJob), more: rows.length > limit };
  }

  async unfinishedArrayParents(): Promise<Job[]> {
    const rows = await this.tables.db
      .selectFrom('jobs')
      .selectAll()
      .where('array_size', 'is not', null)
      .where(notFinal)
      .orderBy('seq')
      .execute();
    return rows.map(toJob);
  }

  /**
   * Moves every child of the parent in `move.from` to `move.to` in one transaction, each
   * transition recorded: one statement per state left, however many children.
   */
  async moveArrayChildren(parentId: string, move: ChildrenMove): Promise<number> {
    const note = storableNote(this.tables, move.note);
    return this.tables.db.transaction().execute(async (trx) => {
      let moved = 0;
      for (const from of move.from) {
        let update = trx
          .updateTable('jobs')
          .set({
            state: move.to,
            system_note: note,
            updated_at: move.at,
            ...(move.to === 'cancelled' && { cancel_requested_at: move.at, finished_at: move.at }),
          })
          .where('array_parent', '=', parentId)
          .where('state', '=', from);
        if (move.withoutDependencies) update = update.where('depends_json', 'is', null);
        const rows = await update.returning('id').execute();
        const transitions = rows.map(({ id }) => ({
          job_id: id,
          from_state: from,
          to_state: move.to,
          at: move.at,
          note,
        }));
        await this.tables.hot.insertTransitions(trx, transitions);
        moved += rows.length;
      }
      return moved;
    });
  }
}
