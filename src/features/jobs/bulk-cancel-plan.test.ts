import { describe, expect, it } from 'vitest';
import { JOB_STATES, type JobListItem, type JobState } from '../../../contract';
import { listItem } from '../../test/list-item';
import { jobsToCancel, planBulkCancel } from './bulk-cancel-plan';

const job = (state: JobState): JobListItem => listItem(state, { state });

describe('planBulkCancel', () => {
  it('sorts every state into exactly one group, as the contract cancels it', () => {
    const plan = planBulkCancel(JOB_STATES.map(job));
    const ids = (jobs: JobListItem[]) => jobs.map((j) => j.id);
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
