/** A queue's controls shared by every instance: what operators changed while it runs. */
export interface QueueControl {
  ref: string;
  paused: boolean;
  pausedReason: string | null;
  /** Null: the configured max_running. */
  maxRunning: number | null;
  /** The last change through the API (null: none since the store first saw the queue). */
  changed: { at: number; by: string } | null;
}

/** A change to a queue's controls; a field left out keeps its value. */
export interface QueueControlChange {
  paused?: { reason: string | null } | false;
  maxRunning?: number | null;
}

/** Queues' controls, in the store so that every instance obeys a change at once. */
export interface QueueControlStore {
  /**
   * Stores a row for each queue not seen before (as configured). For a queue whose configured
   * pause or max_running differs from the last one seen, the configuration's wins over what was
   * set through the API: its state becomes the configured one, by `configuration` at `now`.
   */
  register(
    queues: readonly { ref: string; paused: boolean; maxRunning: number }[],
    now: number,
  ): Promise<void>;
  controls(): Promise<QueueControl[]>;
  /** Returns false when no such queue is stored. */
  change(params: QueueControlChangeParams): Promise<boolean>;
}

export interface QueueControlChangeParams {
  ref: string;
  change: QueueControlChange;
  by: string;
  now: number;
}
