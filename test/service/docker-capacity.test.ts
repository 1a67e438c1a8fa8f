import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostList, JobExecution } from '../../contract';
import { detail, submit, waitForState } from '../support/jobs';
import { TEST_IMAGE, startService, testProjects, type TestService } from '../support/service';

/**
 * The local Docker Engine as one host: its memory from the engine's info, less the configured
 * reserve. Two real containers that each ask for 60 % of it never run at once (requests, not
 * real allocation); one that asks for more than the machine has is refused at submit.
 */
const RESERVE = 1024 ** 3;
let service: TestService;

beforeAll(async () => {
  const projects = testProjects();
  service = await startService({
    engine: { type: 'docker', capacity: { reserve_memory: '1g' } },
    projects: {
      ...projects,
      t: {
        ...projects.t,
        definitions: {
          ...projects.t.definitions,
          hog: {
            '1': {
              image: TEST_IMAGE,
              command: ['sleep', '2'],
              stop_grace_seconds: 1,
              resources: { cpus: 0.1, memory: '64m', max: { memory: '4096g' } },
            },
          },
        },
      },
    },
  });
});
afterAll(() => service?.stop());

async function theHost() {
  const response = await service.request('GET', '/v1/client/hosts');
  expect(response.status).toBe(200);
  const list = response.body.data as HostList;
  expect(list.placement).toBe(true);
  expect(list.items).toHaveLength(1);
  return list.items[0]!;
}

const execution = async (id: string) =>
  (await service.request('GET', `/v1/client/job/${id}/execution`)).body.data as JobExecution;

describe('the local Docker Engine as a host', () => {
  it('reports the machine less the reserve', async () => {
    const host = await theHost();
    const machine = Number(
      (await import('node:child_process'))
        .execFileSync('docker', ['info', '--format', '{{.MemTotal}}'])
        .toString()
        .trim(),
    );
    expect(host.state).toBe('ready');
    expect(host.capacity.memory_bytes).toBe(machine - RESERVE);
  });

  it('never runs two jobs at once that together ask for more memory than it has', async () => {
    const { capacity } = await theHost();
    const sixtyPercent = Math.floor(capacity.memory_bytes * 0.6);
    const ask = { job_definition: 't::hog:1', resources: { memory_bytes: sixtyPercent } };
    const first = await submit(service, ask);
    await waitForState(service, first, 'running');
    const second = await submit(service, ask);
    // While the first runs, the second waits and says for what.
    const waiting = await detail(service, second);
    expect(waiting.state).toBe('runnable');
    await expect
      .poll(async () => (await detail(service, second)).system_note, { timeout: 5000 })
      .toMatch(
        /^waiting: needs [\d.]+ GiB of memory; the most free on any host is [\d.]+ GiB \(1 host\)$/,
      );
    await waitForState(service, first, 'completed', 60_000);
    await waitForState(service, second, 'completed', 60_000);
    const [a, b] = [await execution(first), await execution(second)];
    expect(a.resources?.memory_bytes).toBe(sixtyPercent);
    expect(a.host).toBe(b.host);
    // The second started only once the first had ended.
    expect(Date.parse(b.started_at!)).toBeGreaterThanOrEqual(Date.parse(a.finished_at!));
  }, 90_000);

  it('refuses at submit a job that asks for more than the machine has, naming the field', async () => {
    const { capacity } = await theHost();
    const response = await service.request('POST', '/v1/client/job', {
      job_definition: 't::hog:1',
      job_queue: 't::default',
      resources: { memory_bytes: capacity.memory_bytes * 2 },
    });
    expect(response.status).toBe(400);
    expect(response.body.ok).toBe(false);
    expect(response.body.message).toMatch(
      /^resources\.memory_bytes: asks for [\d.]+ GiB of memory; the largest host has [\d.]+ GiB of memory, so it could never start$/,
    );
  });
});
