import type { Kysely, Transaction } from 'kysely';
import { FINAL_STATES, isFinalState, type JobState } from '../../../../contract';
import type { Prunable, PruneBatch, RetentionStore } from '../../../jobs/ports';
import type { Database } from '../../schema';
import type { JobTables } from './context';
import { pruneFinishedCounts } from './finished-counts';
import { addToProject } from './output-budget';
import { pruneExpiredKeys } from './idempotency';

/** A job to delete: its id and seq (labels are keyed by seq). */
interface Doomed {
  id: string;
  seq: number;
}

/** Finished jobs past their retention, deleted a batch per transaction with all kept of them. */
export class JobRetention implements RetentionStore {
  constructor(private readonly tables: JobTables) {}

  async pruneFinished({ queue, before, limit }: PruneBatch & { queue: string }): Promise<number> {
    return this.tables.db.transaction().execute(async (trx) => {
      await this.tables.dialect.serializePruning(trx);
      const doomed = await this.batch(trx, queue, before, limit);
      return doomed.length === 0 ? 0 : deleteJobs(trx, doomed);
    });
  }

  pruneIdempotencyKeys(batch: PruneBatch): Promise<number> {
    return pruneExpiredKeys(this.tables.db, batch);
  }

  async forgetFinishedCounts(before: number): Promise<void> {
    await pruneFinishedCounts(this.tables.db, before);
  }

  async pruneBulkActions({
    project,
    before,
    limit,
  }: PruneBatch & { project: string }): Promise<number> {
    const { db } = this.tables;
    // The oldest ended action first, its results a batch at a time, the action with the last.
    const action = await db
      .selectFrom('bulk_actions')
      .select('id')
      .where('project', '=', project)
      .where('state', '!=', 'running')
      .where('finished_at', '<', before)
      .orderBy('finished_at')
      .limit(1)
      .executeTakeFirst();
    if (!action) return 0;
    return db.transaction().execute(async (trx) => {
      const results = await trx
        .deleteFrom('bulk_action_results')
        .where('action_id', '=', action.id)
        .where(
          'job_seq',
          'in',
          trx
            .selectFrom('bulk_action_results')
            .select('job_seq')
            .where('action_id', '=', action.id)
            .orderBy('job_seq')
            .limit(limit),
        )
        .executeTakeFirst();
      const deleted = Number(results.numDeletedRows);
      if (deleted < limit)
        await trx.deleteFrom('bulk_actions').where('id', '=', action.id).execute();
      // A whole batch either way: another action may be past its time too.
      return limit;
    });
  }

  async prunable(queue: string, before: number): Promise<Prunable> {
    const { db } = this.tables;
    const newest = (await newestChangeJob(db)) ?? '';
    const row = await db
      .selectFrom('jobs')
      .select((eb) => [eb.fn.countAll<number>().as('jobs'), eb.fn.min('finished_at').as('oldest')])
      .where('queue', '=', queue)
      .where('state', 'in', FINAL_STATES)
      .where('finished_at', '<', before)
      .where('id', '!=', newest)
      .where('id', 'not in', awaitedUnjudged(db))
      // Nor a parent kept with such a child (batch keeps it for the child's sake).
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('jobs as child')
              .select('child.id')
              .whereRef('child.array_parent', '=', 'jobs.id')
              .where('child.id', 'in', awaitedUnjudged(db)),
          ),
        ),
      )
      .where((eb) =>
        eb.or([
          eb('array_parent', 'is', null),
          // A child goes with its parent, once the parent is past its time too.
          eb(
            'array_parent',
            'in',
            eb
              .selectFrom('jobs as parent')
              .select('parent.id')
              .where('parent.queue', '=', queue)
              .where('parent.state', 'in', FINAL_STATES)
              .where('parent.finished_at', '<', before),
          ),
        ]),
      )
      .executeTakeFirst();
    const oldest = row?.oldest ?? null;
    return {
      jobs: Number(row?.jobs ?? 0),
      oldestFinishedAt: oldest === null ? null : Number(oldest),
    };
  }

  async pruneFirings({
    schedule,
    before,
    limit,
  }: PruneBatch & { schedule: string }): Promise<number> {
    const { db } = this.tables;
    const deleted = await db
      .deleteFrom('schedule_firings')
      .where('schedule', '=', schedule)
      .where(
        'fire_at',
        'in',
        db
          .selectFrom('schedule_firings')
          .select('fire_at')
          .where('schedule', '=', schedule)
          .where('fire_at', '<', before)
          .where('job_id', 'is', null)
          .orderBy('fire_at')
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }

  reclaimSpace(): Promise<number> {
    return this.tables.dialect.reclaimSpace(this.tables.db);
  }

  /**
   * The next jobs to delete, oldest finished first: jobs of their own, and arrays a batch of
   * children at a time, their parent with the last of them (when none of them is unfinished).
   */
  private async batch(
    trx: Transaction<Database>,
    queue: string,
    before: number,
    limit: number,
  ): Promise<Doomed[]> {
    const candidates = await trx
      .selectFrom('jobs')
      .select(['id', 'seq', 'array_size'])
      .where('queue', '=', queue)
      .where('state', 'in', FINAL_STATES)
      .where('finished_at', '<', before)
      .where('array_parent', 'is', null)
      .where('id', 'not in', awaitedUnjudged(trx))
      .orderBy('finished_at')
      .limit(limit)
      .execute();
    const newest = await newestChangeJob(trx);
    const doomed: Doomed[] = [];
    for (const job of candidates) {
      const room = limit - doomed.length;
      if (room <= 0) break;
      // Where a new event stream starts (max(seq)) must stay the newest number handed out:
      // a stream would otherwise wait for the numbers between as for uncommitted changes.
      if (job.id === newest) continue;
      if (job.array_size === null) {
        doomed.push({ id: job.id, seq: Number(job.seq) });
        continue;
      }
      const children = await trx
        .selectFrom('jobs')
        .select((eb) => ['id', 'seq', 'state', eb('id', 'in', awaitedUnjudged(trx)).as('awaited')])
        .where('array_parent', '=', job.id)
        .orderBy('array_index')
        .limit(room + 1)
        .execute();
      const finished = children.filter(
        (child) => isFinalState(child.state as JobState) && !child.awaited,
      );
      doomed.push(...finished.slice(0, room).map((c) => ({ id: c.id, seq: Number(c.seq) })));
      if (finished.length === children.length && children.length < room) {
        doomed.push({ id: job.id, seq: Number(job.seq) });
      }
    }
    return doomed;
  }
}

/**
 * The jobs a pending job waits for on an edge that holds no end: one stored in the moment the
 * job ended (PostgreSQL, two transactions apart), or before migration 032. Such a job is kept
 * until the waiting one moves on, so no wait is judged on a job no longer stored. Read from the
 * waiting jobs (a partial index holds them) and their edges: a short list.
 */
function awaitedUnjudged(db: Kysely<Database>) {
  return db
    .selectFrom('jobs as waiting')
    .innerJoin('job_dependencies', 'job_dependencies.job_id', 'waiting.id')
    .select('job_dependencies.depends_on')
    .where('waiting.state', '=', 'pending')
    .where('waiting.depends_json', 'is not', null)
    .where('job_dependencies.ended_state', 'is', null);
}

/** The job of the newest state change, which a prune keeps (see batch). */
async function newestChangeJob(db: Kysely<Database>): Promise<string | undefined> {
  const row = await db
    .selectFrom('job_transitions')
    .select('job_id')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.job_id;
}

/** Deletes the jobs and every row that hangs off them; returns how many jobs went. */
async function deleteJobs(trx: Transaction<Database>, doomed: readonly Doomed[]): Promise<number> {
  const ids = doomed.map((job) => job.id);
  await trx.deleteFrom('job_transitions').where('job_id', 'in', ids).execute();
  await trx.deleteFrom('job_attempts').where('job_id', 'in', ids).execute();
  await trx.deleteFrom('job_usage').where('job_id', 'in', ids).execute();
  await trx
    .deleteFrom('job_labels')
    .where(
      'job_seq',
      'in',
      doomed.map((job) => job.seq),
    )
    .execute();
  // The edges of the jobs that go; an edge naming one of them stays with the job that waits,
  // its end recorded (migration 032), until that job goes in turn.
  await trx.deleteFrom('job_dependencies').where('job_id', 'in', ids).execute();
  await trx.deleteFrom('schedule_firings').where('job_id', 'in', ids).execute();
  // What is returned is what this transaction deleted: an instance that pruned the same rows
  // first took them off the total already.
  const outputs = await trx
    .deleteFrom('job_logs')
    .where('job_id', 'in', ids)
    .returning(['project', 'stored_bytes'])
    .execute();
  const freed = new Map<string, number>();
  for (const { project, stored_bytes } of outputs) {
    if (project !== null) freed.set(project, (freed.get(project) ?? 0) + Number(stored_bytes));
  }
  for (const [project, bytes] of freed) {
    if (bytes !== 0) await addToProject(trx, project, -bytes);
  }
  const jobs = await trx.deleteFrom('jobs').where('id', 'in', ids).returning('id').execute();
  return jobs.length;
}
