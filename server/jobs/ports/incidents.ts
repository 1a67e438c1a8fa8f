import type { PruneBatch } from './retention';

/** What held a queue's jobs up for a while: the engine unreachable, or the queue paused. */
export type IncidentKind = 'engine_unreachable' | 'queue_paused';

/** One window of an incident; ended null while it lasts. */
export interface Incident {
  kind: IncidentKind;
  /** The queue paused; null for the engine (every queue's). */
  queue: string | null;
  startedAt: number;
  endedAt: number | null;
  /** The pause's reason, or what the engine said. */
  note: string | null;
}

/**
 * Incident windows, kept for the trends (as long as their daily rollups). Several instances may
 * open one window each for the same outage; readers merge them.
 */
export interface IncidentStore {
  /** Opens a window unless one of that kind (and queue) is open already. */
  open(params: Omit<Incident, 'endedAt'>): Promise<void>;
  /** Ends every open window of that kind (and queue) at `at`. */
  close(params: { kind: IncidentKind; queue: string | null; at: number }): Promise<void>;
  /** Windows of the queue's and the engine's that overlap [from, to], oldest first. */
  overlapping(params: { queue: string; from: number; to: number }): Promise<Incident[]>;
  /** Deletes windows that ended before `before`; how many went. */
  pruneEnded(params: PruneBatch): Promise<number>;
}
