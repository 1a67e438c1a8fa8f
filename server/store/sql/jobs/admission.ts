import type { Kysely } from 'kysely';
import type { Admission, IdempotencyKey, Job, NewJob } from '../../../jobs/model';
import type { InsertOutcome, JobStore } from '../../../jobs/ports';
import type { Database } from '../../schema';
import type { UniqueIndex } from '../dialect';
import type { NewJobRow, NewTransitionRow } from '../hot-queries';
import { WriteBatch } from '../write-batch';
import { storableNote, type JobTables } from './context';
import { DependencyGone, insertDependenciesWithin } from './dependencies';
import { IdempotencyKeyTaken, keyRow, storeKeysWithin, type KeyedJob } from './idempotency';
import { insertLabelsWithin } from './labels';
import { newJobRow, storedJob } from './rows';
import { notFinal } from './not-final';

export interface PendingInsert {
  job: NewJob;
  definitionFingerprint: string;
  admission: Admission | undefined;
  /** Job Submit's Idempotency-Key, stored with the job. */
  idempotency?: IdempotencyKey;
}

interface WritePlan {
  rows: NewJobRow[];
  transitions: NewTransitionRow[];
  firstUses: Map<string, { fingerprint: string; at: number }>;
}

const hasLabels = (job: NewJob) => Object.keys(job.labels).length > 0;
const isKeyed = (insert: PendingInsert): insert is PendingInsert & KeyedJob =>
  insert.idempotency !== undefined;

/** Migration 001's partial index: a name is held by at most one unfinished job of a queue. */
const ACTIVE_NAME: UniqueIndex = {
  name: 'jobs_active_name',
  table: 'jobs',
  columns: ['queue', 'name'],
};

/** Migration 014's index: a child's index is taken once in its array. */
const ARRAY_INDEX: UniqueIndex = {
  name: 'jobs_array_children',
  table: 'jobs',
  columns: ['array_parent', 'array_index'],
};

/** Job Submit's write: new jobs, their first transitions and definitions' first use. */
export class JobAdmission implements Pick<JobStore, 'insertJob'> {
  private readonly inserts = new WriteBatch<PendingInsert, InsertOutcome>(
    (batch) => this.insertAll(batch),
    (insert) => this.insertAlone(insert),
  );
  /** Definitions whose first use a committed transaction has recorded. */
  private readonly fingerprinted = new Set<string>();

  constructor(private readonly tables: JobTables) {}

  insertJob(
    job: NewJob,
    definitionFingerprint: string,
    admission?: Admission,
    idempotency?: IdempotencyKey,
  ) {
    return this.inserts.add({ job, definitionFingerprint, admission, idempotency });
  }

  /**
   * An array's parent and children in one transaction of their own: ten thousand rows are not
   * held up in (nor hold up) the batch of ordinary submits.
   */
  async insertArray(
    parent: NewJob,
    admission: Admission,
    children: readonly { job: NewJob; admission: Admission }[],
    definitionFingerprint: string,
    idempotency?: IdempotencyKey,
  ): Promise<InsertOutcome> {
    const inserts: PendingInsert[] = [
      { job: parent, definitionFingerprint, admission, idempotency },
      ...children.map((child) => ({ ...child, definitionFingerprint })),
    ];
    try {
      const [stored] = await this.tables.db
        .transaction()
        .execute((trx) => this.writeJobs(trx, inserts));
      this.fingerprinted.add(parent.definition);
      return { inserted: true as const, job: stored! };
    } catch (error) {
      return this.refusal(error, parent, idempotency);
    }
  }

  async insertArrayChildren(
    children: readonly { job: NewJob; admission: Admission }[],
  ): Promise<number> {
    // Their definition's first use was recorded with the parent.
    const inserts = children.map((child) => ({ ...child, definitionFingerprint: '' }));
    try {
      await this.tables.db.transaction().execute((trx) => this.writeJobs(trx, inserts));
      return children.length;
    } catch (error) {
      // A child stored before holds its index, and its name (`<parent>:<index>`) while unfinished:
      // either index may be the one the database reports.
      const { dialect } = this.tables;
      if (dialect.isUniqueViolation(error, ARRAY_INDEX)) return 0;
      if (dialect.isUniqueViolation(error, ACTIVE_NAME)) return 0;
      throw error;
    }
  }

  /** Several jobs in one transaction (see WriteBatch); throws if any of them cannot be stored. */
  private async insertAll(inserts: PendingInsert[]): Promise<InsertOutcome[]> {
    const jobs = await this.write(inserts);
    for (const job of jobs) this.fingerprinted.add(job.definition);
    return jobs.map((job) => ({ inserted: true as const, job }));
  }

  /** One job in its own transaction; a name held by an unfinished job is an answer, not an error. */
  private async insertAlone(insert: PendingInsert): Promise<InsertOutcome> {
    try {
      const [stored] = await this.write([insert]);
      this.fingerprinted.add(stored!.definition);
      return { inserted: true as const, job: stored! };
    } catch (error) {
      return this.refusal(error, insert.job, insert.idempotency);
    }
  }

  /**
   * A held key (checked first: it is written first), a held name or a job waited for that is
   * gone is an answer, anything else a fault.
   */
  private async refusal(
    error: unknown,
    job: NewJob,
    idempotency: IdempotencyKey | undefined,
  ): Promise<InsertOutcome> {
    if (error instanceof IdempotencyKeyTaken && idempotency) {
      const row = await keyRow(this.tables.db, job.project, idempotency.key);
      return {
        inserted: false as const,
        keyHeldBy: row ? { jobId: row.jobId, digest: row.digest } : null,
      };
    }
    if (error instanceof DependencyGone) {
      return { inserted: false as const, dependencyGone: error.dependsOn };
    }
    if (!this.tables.dialect.isUniqueViolation(error, ACTIVE_NAME)) throw error;
    return { inserted: false as const, nameHeldBy: await this.nameHolder(job) };
  }

  /**
   * Job Submit's batch: where the dialect writes the jobs and their transitions in one atomic
   * statement and nothing else is to be written (labels, dependencies, a definition's first
   * use, an Idempotency-Key), that statement alone, with no transaction around it; otherwise a
   * transaction.
   */
  private write(inserts: PendingInsert[]): Promise<Job[]> {
    const plan = this.plan(inserts);
    const { db, dialect } = this.tables;
    const oneStatement =
      dialect.insertJobsAndTransitions !== undefined &&
      plan.firstUses.size === 0 &&
      inserts.every(
        ({ job, idempotency }) => job.dependsOn.length === 0 && !hasLabels(job) && !idempotency,
      );
    if (oneStatement) return this.writePlan(db, inserts, plan);
    return db.transaction().execute((trx) => this.writePlan(trx, inserts, plan));
  }

  private async nameHolder(job: NewJob): Promise<string> {
    const holder = await this.tables.db
      .selectFrom('jobs')
      .select('id')
      .where('queue', '=', job.queue)
      .where('name', '=', job.name)
      .where(notFinal)
      .executeTakeFirst();
    return holder?.id ?? 'unknown';
  }

  /**
   * The jobs, their first transition(s) and their definitions' fingerprints, inside `trx` (this
   * module's, or a caller's: a schedule's firing): the jobs in one statement, the transitions in
   * another (a batch of ten was thirty statements). The stored jobs are made from what was
   * written, not read back. A caller's transaction may still roll back: the definitions'
   * first uses are remembered by this module's own commits alone.
   */
  writeJobs(trx: Kysely<Database>, inserts: PendingInsert[]): Promise<Job[]> {
    return this.writePlan(trx, inserts, this.plan(inserts));
  }

  /** The rows to write for `inserts`, and the definitions whose first use is to be recorded. */
  private plan(inserts: PendingInsert[]): WritePlan {
    const rows: NewJobRow[] = [];
    const transitions: NewTransitionRow[] = [];
    const firstUses = new Map<string, { fingerprint: string; at: number }>();
    for (const { job, definitionFingerprint, admission } of inserts) {
      const systemNote = admission ? storableNote(this.tables, admission.note) : null;
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
    return { rows, transitions, firstUses };
  }

  private async writePlan(
    trx: Kysely<Database>,
    inserts: PendingInsert[],
    { rows, transitions, firstUses }: WritePlan,
  ): Promise<Job[]> {
    const { hot, dialect } = this.tables;
    // The keys first: a held one undoes the transaction before any job row is written.
    await storeKeysWithin(trx, inserts.filter(isKeyed));
    let returned: { id: string; seq: number }[];
    if (dialect.insertJobsAndTransitions) {
      returned = await dialect.insertJobsAndTransitions(trx, rows, transitions);
    } else {
      returned = await hot.insertJobs(trx, rows);
      await hot.insertTransitions(trx, transitions);
    }
    const seqById = new Map(returned.map(({ id, seq }) => [id, seq]));
    await insertLabelsWithin(
      trx,
      inserts.map(({ job }) => job),
      new Map(rows.map((row) => [row.id, { seq: seqById.get(row.id)!, state: row.state }])),
    );
    await insertDependenciesWithin(
      trx,
      inserts.map(({ job, admission }) => ({ job, ends: admission?.dependencyEnds })),
      dialect.locksRowsRead,
    );
    for (const [ref, { fingerprint, at }] of firstUses) {
      await hot.rememberFingerprint(trx, { ref, fingerprint, first_used_at: at });
    }
    return rows.map((row, i) => {
      const seq = seqById.get(row.id);
      if (seq === undefined)
        throw new Error(`job ${row.id}: the insert returned no sequence number`);
      return storedJob(inserts[i]!.job, row, seq);
    });
  }
}
