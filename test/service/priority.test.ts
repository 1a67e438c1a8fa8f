import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, testProjects, type TestService } from '../support/service';
import { submit, transitionTimes, waitForState } from '../support/jobs';

let service: TestService;
beforeAll(async () => {
  const projects = testProjects();
  // One slot for the whole service, two queues competing for it.
  projects.t.queues = {
    default: { max_running: 4, priority: 10 },
    single: { max_running: 4, priority: 0 },
    paused: { paused: true },
  } as typeof projects.t.queues;
  service = await startService({ max_running: 1, projects });
});
afterAll(() => service.stop());

describe('dispatch order', () => {
  it('fills a free slot from the higher-priority queue first, and FIFO within a queue', async () => {
    const blocker = await submit(service, { job_definition: 't::sleep:1', job_queue: 't::single' });
    await waitForState(service, blocker, 'running');
    const low = await submit(service, { job_definition: 't::echo:1', job_queue: 't::single' });
    const highFirst = await submit(service, {
      job_definition: 't::echo:1',
      job_queue: 't::default',
    });
    const highSecond = await submit(service, {
      job_definition: 't::echo:1',
      job_queue: 't::default',
    });
    const waiting = await waitForState(service, highFirst, 'runnable');
    expect(waiting.system_note).toBe(
      'waiting for a slot: 1st of 2 waiting in queue t::default; 1 of 1 running on this service (max_running)',
    );

    await service.request('POST', `/v1/client/job/${blocker}/cancel`);
    for (const id of [low, highFirst, highSecond]) await waitForState(service, id, 'completed');
    const started = async (id: string) => (await transitionTimes(service, id)).get('starting')!;
    const order = [
      ['low', await started(low)],
      ['highFirst', await started(highFirst)],
      ['highSecond', await started(highSecond)],
    ] as const;
    expect([...order].sort((a, b) => a[1] - b[1]).map(([name]) => name)).toEqual([
      'highFirst',
      'highSecond',
      'low',
    ]);
  });
});
