import { sql, type Kysely, type Selectable } from 'kysely';
import type { Job, StateChange } from '../../../jobs/model';
import type { Database, JobsTable } from '../../schema';
import { insertAttemptsWithin, packAttempt, type PackedAttempt } from './attempts';
import { storableNote, type JobTables } from './context';
import { packKeptOutput, saveLogsWithin, type PackedOutput } from './logs';
import { moveRow } from './move-row';
import { toJob } from './rows';

/** A move ready to write: what it records with it compressed already (outside any transaction). */
export interface PackedMove {
  change: StateChange;
  endedAttempt?: PackedAttempt;
  keptOutput?: PackedOutput;
}

/**
 * What one move of a batch came to: the job as moved, refused by its state (someone moved it
 * first), or refused by its fence (another instance owns it now).
 */
export type MoveOutcome =
  { kind: 'moved'; job: Job } | { kind: 'conflict' } | { kind: 'lost'; ownedBy: string | null };

/** Compresses what the move records, so that the write lock is held for the writes alone. */
export async function packMove(change: StateChange): Promise<PackedMove> {
  const packed: PackedMove = { change };
  if (change.endedAttempt) packed.endedAttempt = await packAttempt(change.endedAttempt);
  if (change.keptOutput) packed.keptOutput = await packKeptOutput(change.keptOutput);
  return packed;
}

/**
 * Writes a batch of moves inside the caller's transaction, each a compare-and-set on the job's
 * state (and, fenced, on its owner and epoch) with its transition (one statement for the batch
 * where the dialect can, otherwise an update a move and one insert), then each moved job's
 * ended attempt and kept output. A refusal is that move's answer, never the batch's: every
 * other move still commits.
 */
export async function writeMovesWithin(
  trx: Kysely<Database>,
  tables: JobTables,
  moves: readonly PackedMove[],
): Promise<MoveOutcome[]> {
  const rows = tables.dialect.moveJobsAndTransitions
    ? await moveInStatements(trx, tables, moves)
    : await moveOneByOne(trx, tables, moves);
  const movedAt = moves.flatMap((move, i) => (rows[i] ? [i] : []));
  const moved = movedAt.map((i) => moves[i]!);
  await insertAttemptsWithin(
    trx,
    tables,
    moved.flatMap(({ change, endedAttempt }) =>
      endedAttempt ? [{ jobId: change.id, attempt: endedAttempt }] : [],
    ),
  );
  await saveLogsWithin(
    trx,
    moved.flatMap(({ change, keptOutput }) =>
      keptOutput ? [{ jobId: change.id, output: keptOutput }] : [],
    ),
  );
  const owners = await currentOwners(
    trx,
    moves.filter((move, i) => !rows[i] && move.change.fence).map((move) => move.change.id),
  );
  return moves.map(({ change }, i): MoveOutcome => {
    const row = rows[i];
    if (row) return { kind: 'moved', job: toJob(row) };
    const now = owners.get(change.id);
    const { fence } = change;
    // A fenced move that matched no row: was it the ownership that refused it, or the state?
    if (fence && now && (now.owner !== fence.owner || now.owner_epoch !== fence.epoch)) {
      return { kind: 'lost', ownedBy: now.owner };
    }
    return { kind: 'conflict' };
  });
}

type MovedRows = (Selectable<JobsTable> | undefined)[];

/**
 * The dialect's one statement per round: a round holds each job once, and a later move of a job
 * (a later round) compares with what the earlier one left.
 */
async function moveInStatements(
  trx: Kysely<Database>,
  tables: JobTables,
  moves: readonly PackedMove[],
): Promise<MovedRows> {
  const rows: MovedRows = [];
  for (const round of rounds(moves)) {
    const moved = await tables.dialect.moveJobsAndTransitions!(
      trx,
      round.map((i) => moveRow(tables, moves[i]!.change)),
    );
    round.forEach((i, k) => (rows[i] = moved.get(k)));
  }
  return rows;
}

/** The moves' indexes in rounds: the nth move of a job in the batch goes to the nth round. */
function rounds(moves: readonly PackedMove[]): number[][] {
  const result: number[][] = [];
  const seen = new Map<string, number>();
  moves.forEach(({ change }, i) => {
    const round = seen.get(change.id) ?? 0;
    seen.set(change.id, round + 1);
    (result[round] ??= []).push(i);
  });
  return result;
}

/** One compare-and-set a move, in the batch's order; the transitions of those that moved in one insert. */
async function moveOneByOne(
  trx: Kysely<Database>,
  tables: JobTables,
  moves: readonly PackedMove[],
): Promise<MovedRows> {
  const rows: MovedRows = [];
  // In order: a later move of the same job compares with what an earlier one of the batch left.
  for (const { change } of moves) rows.push(await compareAndSet(trx, tables, change));
  const moved = moves.filter((_, i) => rows[i]);
  if (moved.length > 0) {
    await trx
      .insertInto('job_transitions')
      .values(moved.map(({ change }) => transitionRow(tables, change)))
      .execute();
  }
  return rows;
}

function compareAndSet(trx: Kysely<Database>, tables: JobTables, change: StateChange) {
  const { fields = {}, fence } = change;
  return trx
    .updateTable('jobs')
    .set({
      state: change.to,
      system_note: storableNote(tables, change.note),
      updated_at: change.at,
      ...(fields.containerId !== undefined && { container_id: fields.containerId }),
      ...(fields.exitCode !== undefined && { exit_code: fields.exitCode }),
      ...(fields.startedAt !== undefined && { started_at: fields.startedAt }),
      ...(fields.finishedAt !== undefined && { finished_at: fields.finishedAt }),
      ...(fields.cancelRequestedAt !== undefined && {
        cancel_requested_at: fields.cancelRequestedAt,
      }),
      ...(fields.cancelRequestedBy !== undefined && {
        cancel_requested_by: fields.cancelRequestedBy,
      }),
      // A new owner is a new ownership: the old one's fenced moves are refused from now on.
      ...(fields.owner !== undefined && {
        owner: fields.owner,
        owner_epoch: sql<number>`owner_epoch + 1`,
      }),
      ...(fields.node !== undefined && { node: fields.node }),
      // Placed as it is claimed: why it did not fit before is past.
      ...(fields.host !== undefined && { host: fields.host, placement_note: null }),
      ...(fields.attempt !== undefined && { attempt: fields.attempt }),
      ...(fields.notBefore !== undefined && { not_before: fields.notBefore }),
      ...(fields.memoryBytes !== undefined && { memory_bytes: fields.memoryBytes }),
      ...(fields.preemption !== undefined && {
        preempt_requested_at: fields.preemption?.at ?? null,
        preempt_reason: fields.preemption?.reason ?? null,
      }),
      ...(fields.preemptions !== undefined && { preemptions: fields.preemptions }),
      ...(fields.resources && {
        req_cpus: fields.resources.cpus,
        req_memory_bytes: fields.resources.memoryBytes,
        req_gpus: fields.resources.gpus,
      }),
    })
    .where('id', '=', change.id)
    .where('state', '=', change.from)
    .$if(fence !== undefined, (update) =>
      update.where('owner', '=', fence!.owner).where('owner_epoch', '=', fence!.epoch),
    )
    .returningAll()
    .executeTakeFirst();
}

function transitionRow(tables: JobTables, change: StateChange) {
  return {
    job_id: change.id,
    from_state: change.from,
    to_state: change.to,
    at: change.at,
    note: storableNote(tables, change.note),
    moved_by: change.by ?? null,
    lease_epoch: change.leaseEpoch ?? null,
  };
}

/** The owner and epoch of each job, read once for all the fenced moves of a batch refused. */
async function currentOwners(trx: Kysely<Database>, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, { owner: string | null; owner_epoch: number }>();
  const rows = await trx
    .selectFrom('jobs')
    .select(['id', 'owner', 'owner_epoch'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.id, { owner: row.owner, owner_epoch: row.owner_epoch }]));
}
