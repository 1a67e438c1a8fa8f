import { SIMULATED_SETTINGS } from './engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobExecution } from '../../contract';
import { SCRIPT_VARIABLES as SIMULATE } from '../../server/runtime/simulated/script';
import { logsOf, statesOf, submit, waitForState } from '../support/jobs';
import { execUrl, openExec } from '../support/exec-session';
import { startService, testProjects, type TestService } from '../support/service';

/**
 * The whole service on the simulated engine: the same dispatcher, runner and reconciler as on the
 * real engines, with nothing started; every answer that names the engine says it is simulated.
 */
let service: TestService;

beforeAll(async () => {
  const projects = testProjects();
  Object.assign(projects.t, { exec: true }); // so that only the engine can refuse a command
  service = await startService({ ...SIMULATED_SETTINGS, projects });
});
afterAll(() => service?.stop());

const env = (variables: Record<string, string>) =>
  Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, { value }]));

async function executionOf(id: string): Promise<JobExecution> {
  const response = await service.request('GET', `/v1/client/job/${id}/execution`);
  expect(response.status).toBe(200);
  return response.body.data as JobExecution;
}

describe('the simulated engine, behind the whole service', () => {
  it('cannot run a command in a running job, and says so before the upgrade', async () => {
    const id = await submit(service, {
      job_definition: 't::sleep:1',
      container_env: env({ [SIMULATE.runMs]: '60000' }),
    });
    await waitForState(service, id, 'running');
    const url = execUrl(service.baseUrl, id, ['sh']);
    expect(await openExec(url, { authorization: `Bearer ${service.key}` })).toEqual({
      status: 501,
      body: {
        ok: false,
        message:
          'engine: the simulated engine cannot run a command in a job; only the local docker engine can',
      },
    });
    await service.request('POST', `/v1/client/job/${id}/cancel`);
  });

  it('says it is simulated in readiness and whoami', async () => {
    const ready = await service.request('GET', '/readyz');
    expect(ready.body).toEqual({
      ok: true,
      data: { store: 'reachable', engine: 'reachable', engine_type: 'simulated', dispatcher: true },
    });
    const whoami = await service.request('GET', '/v1/client/whoami');
    expect(whoami.body.data).toMatchObject({
      service: { engine: 'simulated' },
      exec: { supported: false },
    });
  });

  it('takes every job through every state, the queue’s limit held, each on a simulated node', async () => {
    const ids = await Promise.all(
      Array.from({ length: 30 }, () => submit(service, { job_definition: 't::echo:1' })),
    );
    for (const id of ids) await waitForState(service, id, 'completed');
    for (const id of ids.slice(0, 5)) {
      expect(await statesOf(service, id)).toEqual([
        'submitted',
        'runnable',
        'starting',
        'running',
        'completed',
      ]);
      const execution = await executionOf(id);
      expect(execution).toMatchObject({ engine: 'simulated', exit_code: 0 });
      expect(execution.node).toMatch(/^sim-node-[12]$/);
      expect(execution.duration_ms).toBeGreaterThanOrEqual(100);
      expect(await logsOf(service, id)).toMatch(
        /^simulated: ran \d+ ms on sim-node-[12], exit 0\n$/,
      );
    }
    // The queue allows 4, the simulated cluster 2 × 2: never more than 4 ran at once.
    const spans = await Promise.all(
      ids.map(async (id) => {
        const { started_at, finished_at } = await executionOf(id);
        return [Date.parse(started_at!), Date.parse(finished_at!)] as const;
      }),
    );
    const most = Math.max(
      ...spans.map(([start]) => spans.filter(([s, f]) => s <= start && start < f).length),
    );
    expect(most).toBeLessThanOrEqual(4);
    expect(most).toBeGreaterThanOrEqual(2);
  });

  it('ends a job as its environment scripts it: a failure with its exit code and output', async () => {
    const id = await submit(service, {
      job_definition: 't::echo:1',
      container_env: env({ [SIMULATE.exitCode]: '3', [SIMULATE.stderr]: 'disk quota exceeded' }),
    });
    const job = await waitForState(service, id, 'failed');
    expect(job.system_note).toBe('exited with code 3');
    expect(await logsOf(service, id)).toContain('disk quota exceeded');
    expect((await executionOf(id)).exit_code).toBe(3);
  });
});
