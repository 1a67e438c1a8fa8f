import { describe, expect, it } from 'vitest';
import { JOB_STATES, type JobState } from '../../contract';
import { jobsToCancel, planBulkCancel, type CancelTarget } from './bulk-cancel-plan';

const job = (state: JobState): CancelTarget => ({ id: state, name: state, state });

describe('planBulkCancel', () => {
  it('sorts every state into exactly one group, as the contract cancels it', () => {
    const plan = planBulkCancel(JOB_STATES.map(job));
    const ids = (jobs: CancelTarget[]) => jobs.map((j) => j.id);
    expect(ids(plan.immediate)).toEqual(['submitted', 'pending', 'runnable']);
    expect(ids(plan.stopping)).toEqual(['starting', 'running']);
    expect(ids(plan.alreadyCancelling)).toEqual(['cancelling']);
    expect(ids(plan.final)).toEqual(['cancelled', 'timeout', 'completed', 'failed', 'error']);
    expect(ids(jobsToCancel(plan))).toEqual([
      'submitted',
      'pending',
      'runnable',
      'starting',
      'running',
    ]);
  });
});
