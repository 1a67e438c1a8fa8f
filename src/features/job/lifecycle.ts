import { cancelEffect, isFinalState, type JobRecord, type JobState } from '../../../contract';

export interface LifecycleStep {
  label: string;
  state: JobState | 'finished';
}

/** The steps a job goes through; `pending` only for scheduled jobs. */
export function lifecycleSteps(job: JobRecord): LifecycleStep[] {
  const steps: LifecycleStep[] = [{ label: 'Submitted', state: 'submitted' }];
  if (job.schedule_at !== null || job.state === 'pending')
    steps.push({ label: 'Pending', state: 'pending' });
  steps.push(
    { label: 'Runnable', state: 'runnable' },
    { label: 'Starting', state: 'starting' },
    { label: 'Running', state: 'running' },
    { label: 'Finished', state: 'finished' },
  );
  return steps;
}

/** Index of the step the job is in; past the last step when it is final. */
export function activeStep(job: JobRecord, steps: LifecycleStep[]): number {
  if (isFinalState(job.state)) return steps.length;
  const state = job.state === 'cancelling' ? 'running' : job.state;
  return Math.max(
    0,
    steps.findIndex((step) => step.state === state),
  );
}

/** Ended, and not as completed: failed, error, timeout or cancelled. */
export const endedUnsuccessfully = (state: JobState) =>
  isFinalState(state) && state !== 'completed';

/** What cancelling does from each state, for the confirm dialog. */
export function stateAfterCancel(state: JobState): JobState | null {
  switch (cancelEffect(state)) {
    case 'cancel-now':
      return 'cancelled';
    case 'stop-container':
      return 'cancelling';
    case 'already-cancelling':
      return state === 'cancelling' ? 'cancelled' : null;
    case 'refused':
      return null;
  }
}
