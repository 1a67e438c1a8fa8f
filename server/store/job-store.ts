import type { Kysely, Selectable } from 'kysely';
import { FINAL_STATES, SLOT_STATES, type JobState } from '../../contract';
import type {
  ContainerLogs,
  Job,
  JobListFilter,
  NewJob,
  StateChange,
  StoredEnvVar,
  Transition,
} from '../jobs/model';
import type { JobStore } from '../jobs/ports';
import type { Database, JobsTable } from './schema';

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
    containerId: row.container_id,
    exitCode: row.exit_code,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    cancelRequestedAt: row.cancel_requested_at,
  };
}

function isActiveNameConflict(error: unknown): boolean {
  return (
    error instanceof Error &&
    'code' in error &&
    error.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    error.message.includes('jobs.queue, jobs.name')
  );
}

/** JobStore over Kysely; the SQL here is plain enough for SQLite and PostgreSQL alike. */
export class SqlJobStore implements JobStore {
  constructor(private readonly db: Kysely<Database>) {}

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
      if (!isActiveNameConflict(error)) throw error;
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
    const { fields = {} } = change;
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('jobs')
        .set({
          state: change.to,
          system_note: change.note,
          updated_at: change.at,
          ...(fields.containerId !== undefined && { container_id: fields.containerId }),
          ...(fields.exitCode !== undefined && { exit_code: fields.exitCode }),
          ...(fields.startedAt !== undefined && { started_at: fields.startedAt }),
          ...(fields.finishedAt !== undefined && { finished_at: fields.finishedAt }),
          ...(fields.cancelRequestedAt !== undefined && {
            cancel_requested_at: fields.cancelRequestedAt,
          }),
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
          note: change.note,
        })
        .execute();
      return toJob(row);
    });
  }

  async setNote(id: string, state: JobState, note: string | null) {
    await this.db
      .updateTable('jobs')
      .set({ system_note: note })
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
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => ['queue', eb.fn.countAll<number>().as('count')])
      .where('state', 'in', SLOT_STATES)
      .groupBy('queue')
      .execute();
    return new Map(rows.map((r) => [r.queue, Number(r.count)]));
  }

  async oldestRunnable(queue: string, limit: number) {
    const rows = await this.db
      .selectFrom('jobs')
      .selectAll()
      .where('state', '=', 'runnable')
      .where('queue', '=', queue)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map(toJob);
  }

  async listJobs(filter: JobListFilter) {
    let query = this.db
      .selectFrom('jobs')
      .selectAll()
      .where('project', '=', filter.project)
      .orderBy('seq', 'desc')
      .limit(filter.limit);
    if (filter.state) query = query.where('state', '=', filter.state);
    if (filter.queue) query = query.where('queue', '=', filter.queue);
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
    await this.db
      .insertInto('job_logs')
      .values({ job_id: id, text: logs.text, truncated: logs.truncated ? 1 : 0 })
      .onConflict((oc) =>
        oc.column('job_id').doUpdateSet({ text: logs.text, truncated: logs.truncated ? 1 : 0 }),
      )
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
}
