import { sql, type Kysely } from 'kysely';
import { SLOT_STATES } from '../../../../contract';
import {
  JobLostError,
  type Claim,
  type Job,
  type OwnerFence,
  type StateChange,
} from '../../../jobs/model';
import type { JobStore, SetNoteParams, TakeOverParams } from '../../../jobs/ports';
import type { Database } from '../../schema';
import { insertAttemptWithin, packAttempt } from './attempts';
import { storableNote, type JobTables } from './context';
import { packKeptOutput, saveLogsWithin } from './logs';
import { placeWithin } from './placed-claim';
import { toJob } from './rows';

type Moves = Pick<
  JobStore,
  'moveJob' | 'setNote' | 'claimRunnable' | 'takeOver' | 'activeCountsByQueue'
>;

/** A job's state changes: compare-and-set moves, the dispatcher's claims, takeovers. */
export class JobMoves implements Moves {
  constructor(private readonly tables: JobTables) {}

  async moveJob(change: StateChange) {
    // Compressed before the transaction: it holds the write lock only for the writes.
    const ended = change.endedAttempt && (await packAttempt(change.endedAttempt));
    const output = change.keptOutput && (await packKeptOutput(change.keptOutput));
    return this.tables.db.transaction().execute(async (trx) => {
      const moved = await this.moveWithin(trx, change);
      if (moved && ended) await insertAttemptWithin(trx, this.tables, change.id, ended);
      if (moved && output) await saveLogsWithin(trx, change.id, output);
      return moved;
    });
  }

  /**
   * Compare-and-set on the state (and, fenced, on the owner and its epoch) plus the transition
   * record, inside the caller's transaction. A fenced move refused for its owner throws
   * JobLostError, told apart from a state conflict (undefined) by a read of what refused it.
   */
  private async moveWithin(trx: Kysely<Database>, change: StateChange) {
    const { fields = {}, fence } = change;
    const note = storableNote(this.tables, change.note);
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
    if (!row) {
      if (fence) await this.throwIfLost(trx, change.id, fence);
      return undefined;
    }
    await trx
      .insertInto('job_transitions')
      .values({
        job_id: change.id,
        from_state: change.from,
        to_state: change.to,
        at: change.at,
        note,
        moved_by: change.by ?? null,
      })
      .execute();
    return toJob(row);
  }

  /** After a fenced move matched no row: was it the ownership that refused it? */
  private async throwIfLost(trx: Kysely<Database>, id: string, fence: OwnerFence) {
    const now = await trx
      .selectFrom('jobs')
      .select(['owner', 'owner_epoch'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (now && (now.owner !== fence.owner || now.owner_epoch !== fence.epoch)) {
      throw new JobLostError(id, now.owner);
    }
  }

  async setNote({ id, state, note }: SetNoteParams) {
    await this.tables.db
      .updateTable('jobs')
      .set({ system_note: storableNote(this.tables, note) })
      .where('id', '=', id)
      .where('state', '=', state)
      .execute();
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
      if (runnable.length === 0) return [];
      const held = await this.slotsHeldByQueue(trx);
      const heldInService = [...held.values()].reduce((sum, n) => sum + n, 0);
      const room = Math.min(
        claim.queueMax - (held.get(claim.queue) ?? 0),
        claim.serviceMax - heldInService,
      );
      const starts =
        claim.placement && room > 0
          ? await placeWithin(trx, runnable, Math.max(0, room), claim.placement)
          : runnable.slice(0, Math.max(0, room)).map((row) => ({ row, host: undefined }));
      const claimed: Job[] = [];
      for (const { row, host } of starts) {
        const job = toJob(row);
        // A cancel may have taken the job since the select: the compare-and-set skips it then.
        const starting = await this.moveWithin(trx, {
          id: job.id,
          from: 'runnable',
          to: 'starting',
          at: claim.at,
          note: noteFor(job),
          fields: { owner: claim.owner, ...(host !== undefined && { host }) },
          by: claim.owner,
        });
        if (starting) claimed.push(starting);
      }
      return claimed;
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
