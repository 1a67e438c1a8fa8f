import { sql, type Kysely, type Selectable } from 'kysely';
import { FINAL_STATES, SLOT_STATES, type JobState } from '../../../contract';
import {
  DEFAULT_RUN_OPTIONS,
  type Admission,
  type Claim,
  type ContainerLogs,
  type Job,
  type JobChange,
  type JobListFilter,
  type NewJob,
  type OutputLine,
  type OutputStream,
  type QueueStateCount,
  type StateChange,
  type RunOptions,
  type StoredEnvVar,
  type Transition,
} from '../../jobs/model';
import type { JobStore } from '../../jobs/ports';
import type { JobCounts, SealedEnvStore } from '../ports';
import type { Database, JobTransitionsTable, JobsTable } from '../schema';
import type { StoreDialect, UniqueIndex } from './dialect';
import { hotQueries, type NewJobRow, type NewTransitionRow } from './hot-queries';
import { WriteBatch } from './write-batch';

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
    node: row.node,
  };
}

function toTransition(
  row: Pick<Selectable<JobTransitionsTable>, 'from_state' | 'to_state' | 'at' | 'note'>,
): Transition {
  return {
    from: row.from_state as JobState | null,
    to: row.to_state as JobState,
    at: row.at,
    note: row.note,
  };
}

function newJobRow(job: NewJob, state: JobState, systemNote: string | null): NewJobRow {
  return {
    id: job.id,
    project: job.project,
    queue: job.queue,
    definition: job.definition,
    name: job.name,
    state,
    system_note: systemNote,
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
  };
}

/**
 * The job as stored, from what was written. Field by field, in toJob's order: `{ ...job, seq, … }`
 * left kilobytes of garbage a job, most of it kept past two scavenges: half of Job Submit's
 * young-generation pauses (--trace-gc-nvp; docs/benchmarks.md).
 */
function storedJob(job: NewJob, row: NewJobRow, seq: number): Job {
  return {
    id: job.id,
    seq,
    project: job.project,
    queue: job.queue,
    definition: job.definition,
    name: job.name,
    state: row.state as JobState,
    systemNote: row.system_note,
    scheduleAt: job.scheduleAt,
    createdAt: job.createdAt,
    updatedAt: job.createdAt,
    image: job.image,
    command: job.command,
    env: job.env,
    timeoutSeconds: job.timeoutSeconds,
    stopGraceSeconds: job.stopGraceSeconds,
    cpus: job.cpus,
    memoryBytes: job.memoryBytes,
    network: job.network,
    runOptions: job.runOptions,
    containerId: null,
    exitCode: null,
    startedAt: null,
    finishedAt: null,
    cancelRequestedAt: null,
    owner: null,
    node: null,
  };
}

/** A stored line: `[stream, at, text]`, the keys of an object left out of every line. */
type StoredLine = [OutputStream, string, string];

interface PendingInsert {
  job: NewJob;
  definitionFingerprint: string;
  admission: Admission | undefined;
}

type InsertResult = Awaited<ReturnType<JobStore['insertJob']>>;

/** Migration 001's partial index: a name is held by at most one unfinished job of a queue. */
const ACTIVE_NAME: UniqueIndex = {
  name: 'jobs_active_name',
  table: 'jobs',
  columns: ['queue', 'name'],
};

/**
 * JobStore over Kysely, one SQL for every driver: what differs between databases (locking,
 * unique violations, what text can hold) comes from the driver's dialect.
 */
export class SqlJobStore implements JobStore, SealedEnvStore, JobCounts {
  private readonly inserts = new WriteBatch<PendingInsert, InsertResult>(
    (batch) => this.insertAll(batch),
    (insert) => this.insertAlone(insert),
  );

  private readonly hot: ReturnType<typeof hotQueries>;
  /** Definitions whose first use a committed transaction has recorded. */
  private readonly fingerprinted = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
  ) {
    this.hot = hotQueries(db);
  }

  private async slotsHeldByQueue(executor: Kysely<Database>): Promise<Map<string, number>> {
    const rows = await this.hot.slotsHeldByQueue(executor, {});
    return new Map(rows.map((r) => [r.queue, Number(r.count)]));
  }

  insertJob(job: NewJob, definitionFingerprint: string, admission?: Admission) {
    return this.inserts.add({ job, definitionFingerprint, admission });
  }

  /** Several jobs in one transaction (see WriteBatch); throws if any of them cannot be stored. */
  private async insertAll(inserts: PendingInsert[]): Promise<InsertResult[]> {
    const jobs = await this.db.transaction().execute((trx) => this.writeJobs(trx, inserts));
    for (const job of jobs) this.fingerprinted.add(job.definition);
    return jobs.map((job) => ({ inserted: true as const, job }));
  }

  /** One job in its own transaction; a name held by an unfinished job is an answer, not an error. */
  private async insertAlone(insert: PendingInsert): Promise<InsertResult> {
    const { job } = insert;
    try {
      const [stored] = await this.db.transaction().execute((trx) => this.writeJobs(trx, [insert]));
      this.fingerprinted.add(stored!.definition);
      return { inserted: true as const, job: stored! };
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

  /**
   * The jobs, their first transition(s) and their definitions' fingerprints, inside `trx`: the
   * jobs in one statement, the transitions in another (a batch of ten was thirty statements).
   * The stored jobs are made from what was written, not read back.
   */
  private async writeJobs(trx: Kysely<Database>, inserts: PendingInsert[]): Promise<Job[]> {
    const rows: NewJobRow[] = [];
    const transitions: NewTransitionRow[] = [];
    const firstUses = new Map<string, { fingerprint: string; at: number }>();
    for (const { job, definitionFingerprint, admission } of inserts) {
      const systemNote = admission ? this.storableNote(admission.note) : null;
      rows.push(newJobRow(job, admission?.to ?? 'submitted', systemNote));
      // In this order within one statement, so their sequence numbers keep the history's order.
      transitions.push({
        job_id: job.id,
        at: job.createdAt,
        from_state: null,
        to_state: 'submitted',
        note: null,
      });
      if (admission) {
        transitions.push({
          job_id: job.id,
          at: job.createdAt,
          from_state: 'submitted',
          to_state: admission.to,
          note: systemNote,
        });
      }
      // A definition's first use is recorded once and kept: after a commit has it, asking again
      // would cost every submit a statement that changes nothing.
      if (!this.fingerprinted.has(job.definition) && !firstUses.has(job.definition)) {
        firstUses.set(job.definition, { fingerprint: definitionFingerprint, at: job.createdAt });
      }
    }
    const returned = await this.hot.insertJobs(trx, rows);
    const seqById = new Map(returned.map(({ id, seq }) => [id, seq]));
    await this.hot.insertTransitions(trx, transitions);
    for (const [ref, { fingerprint, at }] of firstUses) {
      await this.hot.rememberFingerprint(trx, { ref, fingerprint, first_used_at: at });
    }
    return rows.map((row, i) => {
      const seq = seqById.get(row.id);
      if (seq === undefined)
        throw new Error(`job ${row.id}: the insert returned no sequence number`);
      return storedJob(inserts[i]!.job, row, seq);
    });
  }

  /** By the (state, queue, seq) index: cheap for the unfinished states whatever the store holds. */
  async countByStateAndQueue(states: readonly JobState[]) {
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => ['state', 'queue', eb.fn.countAll<number>().as('count')])
      .where('state', 'in', states)
      .groupBy(['state', 'queue'])
      .execute();
    return rows.map((r) => ({
      state: r.state as JobState,
      queue: r.queue,
      count: Number(r.count),
    }));
  }

  async getJob(id: string) {
    const [row] = await this.hot.jobById(this.db, { id });
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
        ...(fields.node !== undefined && { node: fields.node }),
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
    return this.slotsHeldByQueue(this.db);
  }

  async claimRunnable(claim: Claim, noteFor: (job: Job) => string) {
    // Most claims find an idle queue: a plain read says so without a write transaction (nor,
    // on PostgreSQL, the claim lock). A job made runnable after this read wakes a claim of its own.
    const [waiting] = await this.hot.firstRunnable(this.db, { queue: claim.queue });
    if (!waiting) return [];
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
      if (runnable.length === 0) return [];
      const held = await this.slotsHeldByQueue(trx);
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

  async countByQueue(queues: readonly string[], since: number, recentSince: number) {
    if (queues.length === 0) return [];
    const unfinished = this.db
      .selectFrom('jobs')
      .select((eb) => ['queue', 'state', eb.fn.countAll<number>().as('count')])
      .where('state', 'not in', FINAL_STATES)
      .where('queue', 'in', queues)
      .groupBy(['queue', 'state'])
      .execute();
    // Only final jobs have finished_at: the index (queue, finished_at, state) answers it alone.
    const finished = this.db
      .selectFrom('jobs')
      .select((eb) => [
        'queue',
        'state',
        eb.fn.countAll<number>().as('count'),
        eb.fn
          .sum<number>(eb.case().when('finished_at', '>=', recentSince).then(1).else(0).end())
          .as('recent'),
      ])
      .where('queue', 'in', queues)
      .where('finished_at', '>=', since)
      .groupBy(['queue', 'state'])
      .execute();
    const counts: QueueStateCount[] = [];
    for (const row of await unfinished) {
      const count = Number(row.count);
      counts.push({ queue: row.queue, state: row.state as JobState, count, recent: count });
    }
    for (const row of await finished) {
      counts.push({
        queue: row.queue,
        state: row.state as JobState,
        count: Number(row.count),
        recent: Number(row.recent),
      });
    }
    return counts;
  }

  async transitions(id: string): Promise<Transition[]> {
    const rows = await this.db
      .selectFrom('job_transitions')
      .select(['from_state', 'to_state', 'at', 'note'])
      .where('job_id', '=', id)
      .orderBy('seq')
      .execute();
    return rows.map(toTransition);
  }

  async lastChangeSeq() {
    const row = await this.db
      .selectFrom('job_transitions')
      .select((eb) => eb.fn.max('seq').as('last'))
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  async changeSeqsAfter(afterSeq: number, limit: number) {
    const rows = await this.db
      .selectFrom('job_transitions')
      .select('seq')
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((r) => r.seq);
  }

  async changesAfter(
    project: string,
    afterSeq: number,
    uptoSeq: number,
    limit: number,
  ): Promise<JobChange[]> {
    const rows = await this.db
      .selectFrom('job_transitions as t')
      .innerJoin('jobs as j', 'j.id', 't.job_id')
      .selectAll('j')
      .select(['t.seq as change_seq', 't.from_state', 't.to_state', 't.at', 't.note'])
      .where('j.project', '=', project)
      .where('t.seq', '>', afterSeq)
      .where('t.seq', '<=', uptoSeq)
      .orderBy('t.seq')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      seq: row.change_seq,
      transition: toTransition(row),
      job: toJob(row),
    }));
  }

  async saveLogs(id: string, logs: ContainerLogs) {
    const stored: StoredLine[] = logs.lines.map((l) => [l.stream, l.at, l.text]);
    const values = {
      text: '',
      truncated: logs.truncated ? 1 : 0,
      lines_json: this.dialect.storableText(JSON.stringify(stored)),
    };
    await this.db
      .insertInto('job_logs')
      .values({ job_id: id, ...values })
      .onConflict((oc) => oc.column('job_id').doUpdateSet(values))
      .execute();
  }

  async getLogs(id: string): Promise<ContainerLogs | undefined> {
    const row = await this.db
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
