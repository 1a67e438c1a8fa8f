import { sql, type Kysely, type Selectable } from 'kysely';
import { FINAL_STATES, SLOT_STATES, type JobState } from '../../../contract';
import {
  DEFAULT_RUN_OPTIONS,
  type Claim,
  type ContainerLogs,
  type Job,
  type JobListFilter,
  type NewJob,
  type StateChange,
  type RunOptions,
  type StoredEnvVar,
  type Transition,
} from '../../jobs/model';
import type { JobStore } from '../../jobs/ports';
import type { SealedEnvStore } from '../ports';
import type { Database, JobsTable } from '../schema';
import type { StoreDialect, UniqueIndex } from './dialect';

function toJob(row: Selectable<JobsTable>): Job {
  return {
    id: row.id,
    seq: row.seq,
    project: row.project,
    queue: row.queue,
    definition: row.definition,
    name: row.name,
    state: row.state as JobState,
    systemNote: row.system_note,
    scheduleAt: row.schedule_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    image: row.image,
    command: JSON.parse(row.command_json) as string[],
    env: JSON.parse(row.env_json) as StoredEnvVar[],
    timeoutSeconds: row.timeout_seconds,
    stopGraceSeconds: row.stop_grace_seconds,
    cpus: row.cpus,
    memoryBytes: row.memory_bytes,
    network: row.network,
    runOptions: row.run_options_json
      ? (JSON.parse(row.run_options_json) as RunOptions)
      : DEFAULT_RUN_OPTIONS,
    containerId: row.container_id,
    exitCode: row.exit_code,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    cancelRequestedAt: row.cancel_requested_at,
    owner: row.owner,
  };
}

/** Migration 001's partial index: a name is held by at most one unfinished job of a queue. */
const ACTIVE_NAME: UniqueIndex = {
  name: 'jobs_active_name',
  table: 'jobs',
  columns: ['queue', 'name'],
};

async function slotsHeldByQueue(db: Kysely<Database>): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => ['queue', eb.fn.countAll<number>().as('count')])
    .where('state', 'in', SLOT_STATES)
    .groupBy('queue')
    .execute();
  return new Map(rows.map((r) => [r.queue, Number(r.count)]));
}

/**
 * JobStore over Kysely, one SQL for every driver: what differs between databases (locking,
 * unique violations, what text can hold) comes from the driver's dialect.
 */
export class SqlJobStore implements JobStore, SealedEnvStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
  ) {}

  async insertJob(job: NewJob, definitionFingerprint: string) {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('jobs')
          .values({
            id: job.id,
            project: job.project,
            queue: job.queue,
            definition: job.definition,
            name: job.name,
            state: 'submitted',
            system_note: null,
            schedule_at: job.scheduleAt,
            created_at: job.createdAt,
            updated_at: job.createdAt,
            image: job.image,
            command_json: JSON.stringify(job.command),
            env_json: JSON.stringify(job.env),
            timeout_seconds: job.timeoutSeconds,
            stop_grace_seconds: job.stopGraceSeconds,
            cpus: job.cpus,
            memory_bytes: job.memoryBytes,
            network: job.network,
            run_options_json: JSON.stringify(job.runOptions),
          })
          .execute();
        await trx
          .insertInto('job_transitions')
          .values({
            job_id: job.id,
            from_state: null,
            to_state: 'submitted',
            at: job.createdAt,
            note: null,
          })
          .execute();
        await trx
          .insertInto('definition_fingerprints')
          .values({
            ref: job.definition,
            fingerprint: definitionFingerprint,
            first_used_at: job.createdAt,
          })
          .onConflict((oc) => oc.column('ref').doNothing())
          .execute();
      });
      return { inserted: true as const };
    } catch (error) {
      if (!this.dialect.isUniqueViolation(error, ACTIVE_NAME)) throw error;
      const holder = await this.db
        .selectFrom('jobs')
        .select('id')
        .where('queue', '=', job.queue)
        .where('name', '=', job.name)
        .where('state', 'not in', FINAL_STATES)
        .executeTakeFirst();
      return { inserted: false as const, nameHeldBy: holder?.id ?? 'unknown' };
    }
  }

  async getJob(id: string) {
    const row = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toJob(row);
  }

  async moveJob(change: StateChange) {
    return this.db.transaction().execute((trx) => this.moveWithin(trx, change));
  }

  /** Notes quote engine messages, which may hold anything. */
  private storableNote(note: string | null): string | null {
    return note === null ? null : this.dialect.storableText(note);
  }

  /** Compare-and-set on the state plus the transition record, inside the caller's transaction. */
  private async moveWithin(trx: Kysely<Database>, change: StateChange) {
    const { fields = {} } = change;
    const note = this.storableNote(change.note);
    const row = await trx
      .updateTable('jobs')
      .set({
        state: change.to,
        system_note: note,
        updated_at: change.at,
        ...(fields.containerId !== undefined && { container_id: fields.containerId }),
        ...(fields.exitCode !== undefined && { exit_code: fields.exitCode }),
        ...(fields.startedAt !== undefined && { started_at: fields.startedAt }),
        ...(fields.finishedAt !== undefined && { finished_at: fields.finishedAt }),
        ...(fields.cancelRequestedAt !== undefined && {
          cancel_requested_at: fields.cancelRequestedAt,
        }),
        ...(fields.owner !== undefined && { owner: fields.owner }),
      })
      .where('id', '=', change.id)
      .where('state', '=', change.from)
      .returningAll()
      .executeTakeFirst();
    if (!row) return undefined;
    await trx
      .insertInto('job_transitions')
      .values({
        job_id: change.id,
        from_state: change.from,
        to_state: change.to,
        at: change.at,
        note,
      })
      .execute();
    return toJob(row);
  }

  async setNote(id: string, state: JobState, note: string | null) {
    await this.db
      .updateTable('jobs')
      .set({ system_note: this.storableNote(note) })
      .where('id', '=', id)
      .where('state', '=', state)
      .execute();
  }

  async jobsInStates(states: readonly JobState[]) {
    const rows = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('state', 'in', states)
      .orderBy('seq')
      .execute();
    return rows.map(toJob);
  }

  async dueJobs(now: number) {
    const rows = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('state', '=', 'pending')
      .where('schedule_at', '<=', now)
      .orderBy('schedule_at')
      .execute();
    return rows.map(toJob);
  }

  async nextScheduleAt() {
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.min('schedule_at').as('next'))
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return row?.next ?? undefined;
  }

  async activeCountsByQueue() {
    return slotsHeldByQueue(this.db);
  }

  async claimRunnable(claim: Claim, noteFor: (job: Job) => string) {
    return this.db.transaction().execute(async (trx) => {
      await this.dialect.serializeClaims(trx);
      const runnable = await trx
        .selectFrom('jobs')
        .selectAll()
        .where('state', '=', 'runnable')
        .where('queue', '=', claim.queue)
        .orderBy('seq')
        .limit(claim.limit)
        .execute();
      // Most claims find an idle queue: no need to count its slots then.
      if (runnable.length === 0) return [];
      const held = await slotsHeldByQueue(trx);
      const heldInService = [...held.values()].reduce((sum, n) => sum + n, 0);
      const room = Math.min(
        claim.queueMax - (held.get(claim.queue) ?? 0),
        claim.serviceMax - heldInService,
      );
      const claimed: Job[] = [];
      for (const row of runnable.slice(0, Math.max(0, room))) {
        const job = toJob(row);
        // A cancel may have taken the job since the select: the compare-and-set skips it then.
        const starting = await this.moveWithin(trx, {
          id: job.id,
          from: 'runnable',
          to: 'starting',
          at: claim.at,
          note: noteFor(job),
          fields: { owner: claim.owner },
        });
        if (starting) claimed.push(starting);
      }
      return claimed;
    });
  }

  async takeOver(from: string | null, to: string) {
    const rows = await this.db
      .updateTable('jobs')
      .set({ owner: to })
      .where('state', 'in', SLOT_STATES)
      .where('owner', from === null ? 'is' : '=', from)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async listJobs(filter: JobListFilter) {
    let query = this.db
      .selectFrom('jobs')
      .selectAll()
      .where('project', '=', filter.project)
      .orderBy('seq', 'desc')
      .limit(filter.limit);
    if (filter.states) query = query.where('state', 'in', filter.states);
    if (filter.queue) query = query.where('queue', '=', filter.queue);
    if (filter.namePrefix) {
      // Case-sensitive in every database (SQLite's LIKE is not), and no wildcard to escape.
      const prefix = filter.namePrefix;
      query = query.where(sql<string>`substr(name, 1, ${prefix.length})`, '=', prefix);
    }
    if (filter.createdAfter !== undefined)
      query = query.where('created_at', '>', filter.createdAfter);
    if (filter.createdBefore !== undefined) {
      query = query.where('created_at', '<', filter.createdBefore);
    }
    if (filter.beforeSeq !== undefined) query = query.where('seq', '<', filter.beforeSeq);
    return (await query.execute()).map(toJob);
  }

  async transitions(id: string): Promise<Transition[]> {
    const rows = await this.db
      .selectFrom('job_transitions')
      .select(['from_state', 'to_state', 'at', 'note'])
      .where('job_id', '=', id)
      .orderBy('seq')
      .execute();
    return rows.map((r) => ({
      from: r.from_state as JobState | null,
      to: r.to_state as JobState,
      at: r.at,
      note: r.note,
    }));
  }

  async saveLogs(id: string, logs: ContainerLogs) {
    const text = this.dialect.storableText(logs.text);
    const truncated = logs.truncated ? 1 : 0;
    await this.db
      .insertInto('job_logs')
      .values({ job_id: id, text, truncated })
      .onConflict((oc) => oc.column('job_id').doUpdateSet({ text, truncated }))
      .execute();
  }

  async getLogs(id: string) {
    const row = await this.db
      .selectFrom('job_logs')
      .selectAll()
      .where('job_id', '=', id)
      .executeTakeFirst();
    return row && { text: row.text, truncated: row.truncated === 1 };
  }

  /**
   * For `jobdeck secrets rotate`: a page of jobs that hold sealed env values, in insert order
   * after `afterSeq`. (A LIKE on the JSON text: rotation is rare, a scan is fine.)
   */
  async jobsWithSealedEnv(afterSeq: number, limit: number) {
    const rows = await this.db
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

  /** Replaces a job's env, only if it is still the text read (env is written once, at insert). */
  async replaceEnv(id: string, readJson: string, env: StoredEnvVar[]): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ env_json: JSON.stringify(env) })
      .where('id', '=', id)
      .where('env_json', '=', readJson)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
