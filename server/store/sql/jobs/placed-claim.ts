import type { Kysely, Selectable } from 'kysely';
import { SLOT_STATES } from '../../../../contract';
import { requestOf, type RequestFallback } from '../../../jobs/capacity';
import { addUsage, scaleUsage, usageOfJob } from '../../../jobs/fair-share';
import type { ClaimPlacement } from '../../../jobs/model';
import { beyondRoom, type ClaimQuota } from '../../../jobs/quotas';
import { NO_RESOURCES, place, plus, type Resources } from '../../../jobs/placement';
import type { Database, JobsTable } from '../../schema';

type JobRow = Selectable<JobsTable>;

/** What a stored job asks for (its limits where it was stored before requests were kept). */
export const requestOfRow = (row: Pick<JobRow, RequestColumn>, fallback: RequestFallback) =>
  requestOf(
    {
      resources:
        row.req_cpus === null || row.req_memory_bytes === null
          ? null
          : { cpus: row.req_cpus, memoryBytes: row.req_memory_bytes, gpus: row.req_gpus ?? 0 },
      cpus: row.cpus,
      memoryBytes: row.memory_bytes,
    },
    fallback,
  );
export type RequestColumn = 'req_cpus' | 'req_memory_bytes' | 'req_gpus' | 'cpus' | 'memory_bytes';

/**
 * The queue's first runnable jobs that fit its quota's room together, in order: the first that
 * does not stops the run (quotas.ts), so the smaller ones behind a big job never overtake it.
 */
export function withinQuota(runnable: readonly JobRow[], quota: ClaimQuota): JobRow[] {
  let left = quota.room;
  const fitting: JobRow[] = [];
  for (const row of runnable) {
    const need = usageOfJob(requestOfRow(row, quota.fallback));
    if (beyondRoom(need, left)) break;
    left = addUsage(left, scaleUsage(need, -1));
    fitting.push(row);
  }
  return fitting;
}

/** What the jobs holding a slot ask for, summed per host they were placed on. */
export async function heldByHost(
  executor: Kysely<Database>,
  placement: ClaimPlacement,
): Promise<Map<string, Resources>> {
  const rows = await executor
    .selectFrom('jobs')
    .select(['host', 'req_cpus', 'req_memory_bytes', 'req_gpus', 'cpus', 'memory_bytes'])
    .where('host', 'is not', null)
    .where('state', 'in', SLOT_STATES)
    .execute();
  const held = new Map<string, Resources>();
  for (const row of rows) {
    held.set(
      row.host!,
      plus(held.get(row.host!) ?? NO_RESOURCES, requestOfRow(row, placement.fallback)),
    );
  }
  return held;
}

/**
 * Inside the claim's transaction, which the claims' lock serializes across instances: what each
 * host holds is read afresh and the queue's runnable jobs are placed on what is left, so two
 * claims never place on the same room. Jobs that do not fit get their note (written only when
 * it changed); those that do are returned with their host, at most `room` of them.
 */
export async function placeWithin(
  trx: Kysely<Database>,
  runnable: readonly JobRow[],
  {
    room,
    placement,
    notesPastRoom,
  }: {
    room: number;
    placement: ClaimPlacement;
    /** Whether jobs past the room wait for a slot (their note is cleared) or are just not taken. */
    notesPastRoom: boolean;
  },
): Promise<{ row: JobRow; host: string }[]> {
  const decisions = place({
    hosts: placement.hosts,
    held: await heldByHost(trx, placement),
    candidates: runnable.map((row) => ({
      id: row.id,
      resources: requestOfRow(row, placement.fallback),
    })),
    maxStarts: room,
    policy: placement.policy,
  });
  const starts: { row: JobRow; host: string }[] = [];
  for (const [index, decision] of decisions.entries()) {
    const row = runnable[index]!;
    if (decision.host !== undefined) {
      starts.push({ row, host: decision.host });
    } else if (row.placement_note !== decision.note && (notesPastRoom || decision.note !== null)) {
      await trx
        .updateTable('jobs')
        .set({ placement_note: decision.note })
        .where('id', '=', row.id)
        .where('state', '=', 'runnable')
        .execute();
    }
  }
  return starts;
}
