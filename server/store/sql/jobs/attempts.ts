import type { Kysely } from 'kysely';
import type { JobState } from '../../../../contract';
import type { AttemptRecord, ContainerLogs } from '../../../jobs/model';
import type { JobStore } from '../../../jobs/ports';
import type { Database, JobAttemptsTable } from '../../schema';
import { storableNote, type JobTables } from './context';
import { packOutput, unpackOutput } from './output-codec';

/** An ended attempt as written: its output compressed before the transaction that writes it. */
export interface PackedAttempt {
  record: AttemptRecord;
  output: Buffer | null;
}

/** Compressed outside any transaction, so that the write lock is held for the writes alone. */
export async function packAttempt(record: AttemptRecord): Promise<PackedAttempt> {
  return { record, output: record.output ? await packOutput(record.output.lines) : null };
}

/** An ended attempt of a job, ready to write with the move that ended it. */
export interface EndedAttempt {
  jobId: string;
  attempt: PackedAttempt;
}

/** Records ended attempts (one insert for all) inside the caller's transaction: their moves'. */
export async function insertAttemptsWithin(
  trx: Kysely<Database>,
  tables: JobTables,
  ended: readonly EndedAttempt[],
): Promise<void> {
  if (ended.length === 0) return;
  await trx
    .insertInto('job_attempts')
    .values(
      ended.map(({ jobId, attempt: { record, output } }) => ({
        job_id: jobId,
        attempt: record.attempt,
        state: record.state,
        exit_code: record.exitCode,
        reason: record.reason,
        note: storableNote(tables, record.note),
        node: record.node,
        started_at: record.startedAt,
        finished_at: record.finishedAt,
        retried: record.retried ? 1 : 0,
        memory_bytes: record.memoryBytes,
        output,
        truncated: record.output?.truncated ? 1 : 0,
      })),
    )
    // Recorded once: a move that lost its compare-and-set rolled back with its record.
    .onConflict((oc) => oc.columns(['job_id', 'attempt']).doNothing())
    .execute();
}

/** Each attempt's record, and an earlier attempt's output. */
export class JobAttemptRows implements Pick<JobStore, 'attempts' | 'attemptLogs'> {
  constructor(private readonly tables: JobTables) {}

  async attempts(id: string): Promise<AttemptRecord[]> {
    const rows = await this.tables.db
      .selectFrom('job_attempts')
      .select([
        'attempt',
        'state',
        'exit_code',
        'reason',
        'note',
        'node',
        'started_at',
        'finished_at',
        'retried',
        'memory_bytes',
      ])
      .where('job_id', '=', id)
      .orderBy('attempt')
      .execute();
    return rows.map(toAttempt);
  }

  async attemptLogs(id: string, attempt: number): Promise<ContainerLogs | undefined> {
    const row = await this.tables.db
      .selectFrom('job_attempts')
      .select(['output', 'truncated'])
      .where('job_id', '=', id)
      .where('attempt', '=', attempt)
      .executeTakeFirst();
    // The last attempt keeps its output as the job's (job_logs), not here.
    if (!row || row.output === null) return undefined;
    return { lines: await unpackOutput(row.output), truncated: row.truncated === 1 };
  }
}

function toAttempt(row: Omit<JobAttemptsTable, 'job_id' | 'output' | 'truncated'>): AttemptRecord {
  return {
    attempt: Number(row.attempt),
    state: row.state as JobState,
    exitCode: row.exit_code,
    reason: row.reason,
    note: row.note,
    node: row.node,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    retried: row.retried === 1,
    memoryBytes: row.memory_bytes === null ? null : Number(row.memory_bytes),
  };
}
