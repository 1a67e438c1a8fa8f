import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { logsOf, submit, waitForState } from '../support/jobs';
import { recordFigure } from './figures';

const PIDS_LIMIT = 64;

let service: TestService;
beforeAll(async () => {
  service = await startService({ job_defaults: { pids_limit: PIDS_LIMIT } });
});
afterAll(() => service.stop());

describe('a fork bomb in a job', () => {
  it('stops at the process limit while the service and host stay healthy', async () => {
    const id = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd_parameter: {
        // Bounded: 2,000 forks at most, in a subshell that dies when a fork fails; then the job
        // counts what it got (with builtins: no fork is left to spare) and, by exec (no fork
        // either), holds the limit 3 s more: the bomb alone is over in less than the 100 ms
        // between polls, and the checks below are to run while it holds.
        script:
          '(for i in $(seq 1 2000); do sleep 30 & done) 2>/dev/null; set -- /proc/[0-9]*; echo $#; exec sleep 3',
      },
    });
    await waitForState(service, id, 'running');
    const latencies: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const started = Date.now();
      const health = await service.request('GET', '/v1/health', undefined, null);
      latencies.push(Date.now() - started);
      expect(health.status).toBe(200);
    }
    await waitForState(service, id, ['completed', 'failed'], 60_000);
    const processes = Number((await logsOf(service, id)).trim());
    expect(processes).toBeGreaterThan(PIDS_LIMIT / 2); // it really forked...
    expect(processes).toBeLessThanOrEqual(PIDS_LIMIT); // ...and stopped at the limit
    recordFigure(
      'fork bomb (2,000 forks) in a job',
      `${processes} processes at most (pids limit ${PIDS_LIMIT}); health answered 20 of 20 meanwhile, slowest ${Math.max(...latencies)} ms`,
    );
  });
});
