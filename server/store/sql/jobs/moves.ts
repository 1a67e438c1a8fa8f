import { sql, type Kysely } from 'kysely';
import { SLOT_STATES } from '../../../../contract';
import { failpoint } from '../../../jobs/failpoints';
import { JobLostError, type Claim, type Job, type StateChange } from '../../../jobs/model';
import type {
  JobStore,
  PreemptionParams,
  SetNoteParams,
  TakeOverParams,
} from '../../../jobs/ports';
import type { Database } from '../../schema';
import { WriteBatch } from '../write-batch';
import { storableNote, type JobTables } from './context';
import { packMove, writeMovesWithin, type MoveOutcome, type PackedMove } from './move-batch';
import { appendAuditWithin } from '../audit-store';
import { assertLeaseHeld } from '../leases/fence';
import { placeWithin, withinQuota } from './placed-claim';
import { toJob } from './rows';

type Moves = Pick<
  JobStore,
  'moveJob' | 'setNote' | 'requestPreemption' | 'claimRunnable' | 'takeOver' | 'activeCountsByQueue'
>;

/** A job's state changes: compare-and-set moves, the dispatcher's claims, takeovers. */
export class JobMoves implements Moves {
  /** Moves asked for together are committed together: one transaction, one commit. */
  private readonly batch = new WriteBatch<PackedMove, MoveOutcome>(
    (moves) => this.writeAll(moves),
    async (move) => (await this.writeAll([move]))[0]!,
  );

  constructor(private readonly tables: JobTables) {}

  async moveJob(change: StateChange) {
    const outcome = await this.batch.add(await packMove(change));
    if (outcome.kind === 'lost') throw new JobLostError(change.id, outcome.ownedBy);
    return outcome.kind === 'moved' ? outcome.job : undefined;
  }

  /** One transaction for every move asked for together (see WriteBatch). */
  private writeAll(moves: PackedMove[]): Promise<MoveOutcome[]> {
    return this.tables.db.transaction().execute(async (trx) => {
      const outcomes = await writeMovesWithin(trx, this.tables, moves);
      // For the crash test: killed with a batch written, before its commit.
      if (moves.length > 1) failpoint('in-move-batch');
      return outcomes;
    });
  }

  async setNote({ id, state, note, fence }: SetNoteParams) {
    await this.tables.db
      .updateTable('jobs')
      .set({ system_note: storableNote(this.tables, note) })
      .where('id', '=', id)
      .where('state', '=', state)
      .$if(fence !== undefined, (update) =>
        update.where('owner', '=', fence!.owner).where('owner_epoch', '=', fence!.epoch),
      )
      .execute();
  }

  /** The mark and its audit event in one transaction: neither is stored without the other. */
  async requestPreemption({ id, attempt, preemption, note, audit }: PreemptionParams) {
    return this.tables.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('jobs')
        .set({
          preempt_requested_at: preemption.at,
          preempt_reason: preemption.reason,
          system_note: storableNote(this.tables, note),
        })
        .where('id', '=', id)
        .where('state', '=', 'running')
        .where('attempt', '=', attempt)
        .where('preempt_requested_at', 'is', null)
        .executeTakeFirst();
      const marked = Number(result.numUpdatedRows) === 1;
      if (marked) await appendAuditWithin(trx, [audit]);
      return marked;
    });
  }

  private async slotsHeldByQueue(executor: Kysely<Database>): Promise<Map<string, number>> {
    const rows = await this.tables.hot.slotsHeldByQueue(executor, {});
    return new Map(rows.map((r) => [r.queue, Number(r.count)]));
  }

  async activeCountsByQueue() {
    return this.slotsHeldByQueue(this.tables.db);
  }

  async claimRunnable(claim: Claim, noteFor: (job: Job) => string) {
    const { db, dialect, hot } = this.tables;
    // Most claims find an idle queue: a plain read says so without a write transaction (nor,
    // on PostgreSQL, the claim lock). A job made runnable after this read wakes a claim of its own.
    const [waiting] = await hot.firstRunnable(db, { queue: claim.queue });
    if (!waiting) return [];
    return db.transaction().execute(async (trx) => {
      await dialect.serializeClaims(trx);
      if (claim.lease) await assertLeaseHeld(trx, claim.lease, dialect.locksRowsRead);
      // For the fencing test: frozen between the lease's check and the claim's commit.
      failpoint('in-claim');
      const runnable = await trx
        .selectFrom('jobs')
        .selectAll()
        .where('state', '=', 'runnable')
        .where('queue', '=', claim.queue)
        .where('array_size', 'is', null)
        .where((eb) => eb.or([eb('not_before', 'is', null), eb('not_before', '<=', claim.at)]))
        .orderBy('seq')
        .limit(claim.limit)
        .execute();
      const candidates = claim.quota ? withinQuota(runnable, claim.quota) : runnable;
      if (candidates.length === 0) return [];
      const held = await this.slotsHeldByQueue(trx);
      const heldInService = [...held.values()].reduce((sum, n) => sum + n, 0);
      const slots = Math.min(
        claim.queueMax - (held.get(claim.queue) ?? 0),
        claim.serviceMax - heldInService,
      );
      const room = Math.min(slots, claim.starts ?? Infinity);
      const starts =
        claim.placement && room > 0
          ? await placeWithin(trx, candidates, {
              room,
              placement: claim.placement,
              // Past a claim's `starts`, a job's note stays: it may still wait for room.
              notesPastRoom: room === slots,
            })
          : candidates.slice(0, Math.max(0, room)).map((row) => ({ row, host: undefined }));
      // A cancel may have taken a job since the select: its compare-and-set refuses it then.
      const outcomes = await writeMovesWithin(
        trx,
        this.tables,
        starts.map(({ row, host }, index) => {
          const job = toJob(row);
          const owner = claim.owners?.[index % claim.owners.length] ?? claim.owner;
          return {
            change: {
              id: job.id,
              from: 'runnable',
              to: 'starting',
              at: claim.at,
              note: noteFor(job),
              fields: { owner, ...(host !== undefined && { host }) },
              by: claim.owner,
              leaseEpoch: claim.lease?.epoch,
            },
          };
        }),
      );
      return outcomes.flatMap((outcome) => (outcome.kind === 'moved' ? [outcome.job] : []));
    });
  }

  async takeOver({ from, to }: TakeOverParams) {
    const rows = await this.tables.db
      .updateTable('jobs')
      // Each job taken over is a new ownership: the lost owner's fenced moves are refused.
      .set({ owner: to, owner_epoch: sql<number>`owner_epoch + 1` })
      .where('state', 'in', SLOT_STATES)
      .where('array_size', 'is', null)
      .where('owner', from === null ? 'is' : '=', from)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }
}
