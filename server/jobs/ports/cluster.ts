/** One Jobdeck process on the store, as it last reported itself. */
export interface InstanceRecord {
  id: string;
  host: string;
  pid: number;
  startedAt: number;
  heartbeatAt: number;
  /** Set when it stopped cleanly; its jobs are for another instance to follow then. */
  stoppedAt: number | null;
}

/** The instances sharing a store, so that a survivor can take over a lost one's jobs. */
export interface InstanceRegistry {
  register(instance: InstanceRecord): Promise<void>;
  heartbeat(id: string, at: number): Promise<void>;
  leave(id: string, at: number): Promise<void>;
  list(): Promise<InstanceRecord[]>;
  /** Forgets instances not heard of since `before` (their jobs were taken over long ago). */
  forget(before: number): Promise<void>;
}

/**
 * Something every instance should act on now rather than at its next pass: work to dispatch, a
 * job to settle, state changes for the event streams to read.
 */
export type Signal =
  /** `from`: the instance that asked (only the dispatcher's lease holder acts on it). */
  | { kind: 'dispatch'; from: string }
  /** The dispatcher gave jobs to the instances `to`: each launches those it has not yet. */
  | { kind: 'assigned'; to: readonly string[] }
  | { kind: 'job'; jobId: string }
  | { kind: 'changes' }
  /** A queue's controls changed: read them again. */
  | { kind: 'queues' }
  /** An API key was revoked: forget the keys read so far. */
  | { kind: 'keys' };

/** Wake-ups across the instances sharing a store (and to this one). Best effort: passes catch up. */
export interface Signals {
  publish(signal: Signal): Promise<void>;
  subscribe(listener: (signal: Signal) => void): void;
}
