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

/** States in which a job holds one of its queue's slots: its container exists or is being made. */
export const SLOT_STATES: readonly JobState[] = ['starting', 'running', 'cancelling'];

export function isFinalState(state: JobState): boolean {
  return FINAL_STATES.includes(state);
}
