import { z } from 'zod';

/** The spec's eleven states, in lifecycle order. */
export const JOB_STATES = [
  'submitted',
  'pending',
  'runnable',
  'starting',
  'running',
  'cancelling',
  'cancelled',
  'timeout',
  'completed',
  'failed',
  'error',
] as const;

export const jobStateSchema = z.enum(JOB_STATES);
export type JobState = z.infer<typeof jobStateSchema>;

export const FINAL_STATES: readonly JobState[] = [
  'cancelled',
  'timeout',
  'completed',
  'failed',
  'error',
];

/** Every state a job can still leave: waiting, starting, running or cancelling. */
export const UNFINISHED_STATES: readonly JobState[] = JOB_STATES.filter(
  (state) => !FINAL_STATES.includes(state),
);

/** States of a job that waits for its turn: nothing of it runs yet, and a cancel ends it at once. */
export const WAITING_STATES: readonly JobState[] = ['submitted', 'pending', 'runnable'];

/** Final states of a job that ended without doing its work (a cancel aside): retried, counted as failed. */
export const UNSUCCESSFUL_STATES: readonly JobState[] = ['failed', 'timeout', 'error'];

/** States in which a job holds one of its queue's slots: its container exists or is being made. */
export const SLOT_STATES: readonly JobState[] = ['starting', 'running', 'cancelling'];

/**
 * What a cancel request does in each state (docs/api.md, "What Cancel Job does"): one definition for the service
 * that acts on it and the console that announces it.
 */
export type CancelEffect = 'cancel-now' | 'stop-container' | 'already-cancelling' | 'refused';

export function cancelEffect(state: JobState): CancelEffect {
  switch (state) {
    case 'submitted':
    case 'pending':
    case 'runnable':
      return 'cancel-now';
    case 'starting':
    case 'running':
      return 'stop-container';
    case 'cancelling':
    case 'cancelled':
      return 'already-cancelling';
    default:
      return 'refused';
  }
}

export function isFinalState(state: JobState): boolean {
  return FINAL_STATES.includes(state);
}
