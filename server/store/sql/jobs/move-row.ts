import type { StateChange } from '../../../jobs/model';
import { storableNote, type JobTables } from './context';

/** A column a move may set with the state, and whether this move sets it. */
type Optional<Column extends string, Value> = Record<`set_${Column}`, boolean> &
  Record<Column, Value | null>;

/**
 * One move as a flat row, for a driver that writes a batch's moves in one statement
 * (StoreDialect.moveJobsAndTransitions): a column the move leaves alone has `set_<column>` false,
 * since null is a value a move may set.
 */
export type MoveRow = {
  id: string;
  from_state: string;
  to_state: string;
  at: number;
  note: string | null;
  moved_by: string | null;
  lease_epoch: number | null;
  fence_owner: string | null;
  fence_epoch: number | null;
} & Optional<'container_id', string> &
  Optional<'exit_code', number> &
  Optional<'started_at', number> &
  Optional<'finished_at', number> &
  Optional<'cancel_requested_at', number> &
  Optional<'cancel_requested_by', string> &
  Optional<'node', string> &
  Optional<'attempt', number> &
  Optional<'not_before', number> &
  Optional<'owner', string> &
  Optional<'host', string> &
  Optional<'memory_bytes', number> &
  Optional<'req_cpus', number> &
  Optional<'req_memory_bytes', number> &
  Optional<'req_gpus', number> &
  Optional<'preempt_requested_at', number> &
  Optional<'preempt_reason', string> &
  Optional<'preemptions', number>;

const optional = <Column extends string, Value>(
  column: Column,
  value: Value | null | undefined,
): Optional<Column, Value> =>
  ({ [`set_${column}`]: value !== undefined, [column]: value ?? null }) as Optional<Column, Value>;

export function moveRow(tables: JobTables, change: StateChange): MoveRow {
  const { fields = {}, fence } = change;
  return {
    id: change.id,
    from_state: change.from,
    to_state: change.to,
    at: change.at,
    note: storableNote(tables, change.note),
    moved_by: change.by ?? null,
    lease_epoch: change.leaseEpoch ?? null,
    fence_owner: fence?.owner ?? null,
    fence_epoch: fence?.epoch ?? null,
    ...optional('container_id', fields.containerId),
    ...optional('exit_code', fields.exitCode),
    ...optional('started_at', fields.startedAt),
    ...optional('finished_at', fields.finishedAt),
    ...optional('cancel_requested_at', fields.cancelRequestedAt),
    ...optional('cancel_requested_by', fields.cancelRequestedBy),
    ...optional('node', fields.node),
    ...optional('attempt', fields.attempt),
    ...optional('not_before', fields.notBefore),
    ...optional('owner', fields.owner),
    ...optional('host', fields.host),
    ...optional('memory_bytes', fields.memoryBytes),
    // A retry with more memory asks placement for it too (all three, or none).
    ...optional('req_cpus', fields.resources ? fields.resources.cpus : undefined),
    ...optional('req_memory_bytes', fields.resources ? fields.resources.memoryBytes : undefined),
    ...optional('req_gpus', fields.resources ? fields.resources.gpus : undefined),
    ...optional('preempt_requested_at', fields.preemption && fields.preemption.at),
    ...optional('preempt_reason', fields.preemption && fields.preemption.reason),
    ...optional('preemptions', fields.preemptions),
  };
}
