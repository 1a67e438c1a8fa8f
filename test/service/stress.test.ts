import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { statesOf, waitForState } from '../support/jobs';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const JOBS = 60;

describe('stress', () => {
  // Its waits are for every job (120 s each at most): beside the swarm's suite on a loaded
  // machine, PostgreSQL's run took past the 60 s every other test gets.
  it(
    'runs every one of many jobs exactly once, across a SIGKILL of the service mid-way',
    { timeout: 180_000 },
    async () => {
      const submitted = await Promise.all(
        Array.from({ length: JOBS }, (_, i) =>
          service.request('POST', '/v1/client/job', {
            job_definition: 't::sh:1',
            job_queue: 't::default',
            name: `stress-${i}`,
            container_cmd_parameter: { script: 'sleep 0.2' },
          }),
        ),
      );
      expect(submitted.map((r) => r.status)).toEqual(Array(JOBS).fill(202));
      const ids = submitted.map((r) => (r.body.data as { id: string }).id);
      expect(new Set(ids).size).toBe(JOBS);

      // Let some finish and some run, then kill the service without warning.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await service.stop('SIGKILL');
      await service.restart();

      for (const id of ids) await waitForState(service, id, 'completed', 120_000);
      const histories = await Promise.all(ids.map((id) => statesOf(service, id)));
      // A job requeued before it had a container may start twice; one that ran never does.
      for (const history of histories) {
        expect(history.filter((s) => s === 'running')).toHaveLength(1);
        expect(history.filter((s) => s === 'starting').length).toBeLessThanOrEqual(2);
      }
      const listed = await service.request('GET', '/v1/client/jobs?state=completed&limit=200');
      const completed = (listed.body.data as { items: { name: string }[] }).items.filter((j) =>
        j.name.startsWith('stress-'),
      );
      expect(completed).toHaveLength(JOBS);
    },
  );
});
