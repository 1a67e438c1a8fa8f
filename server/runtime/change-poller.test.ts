import { describe, expect, it } from 'vitest';
import type { Workload } from '../jobs/ports';
import { ChangePoller } from './change-poller';

const workload = (attempt: number, status: Workload['status']): Workload => ({
  id: `w${attempt}`,
  jobId: 'job-1',
  attempt,
  status,
  exitCode: null,
  startedAt: null,
  finishedAt: null,
  node: null,
  message: null,
});

describe('ChangePoller', () => {
  it("wakes a wait on an attempt's workload once it is gone, though a later attempt of the job runs in the same status", async () => {
    let listed = [workload(1, 'running')];
    const poller = new ChangePoller(() => Promise.resolve(listed), 10);
    const woken = poller.wait(workload(1, 'running')).then(() => 'woken');
    listed = [workload(2, 'running')];
    const timeout = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 500));
    expect(await Promise.race([woken, timeout])).toBe('woken');
  });

  it('keeps a wait while its workload stays in the status it was seen in', async () => {
    const poller = new ChangePoller(() => Promise.resolve([workload(1, 'running')]), 10);
    const woken = poller.wait(workload(1, 'running')).then(() => 'woken');
    const timeout = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 200));
    expect(await Promise.race([woken, timeout])).toBe('still waiting');
  });
});
