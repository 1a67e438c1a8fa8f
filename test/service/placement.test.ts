import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostList, JobExecution } from '../../contract';
import { SCRIPT_VARIABLES as SIMULATE } from '../../server/runtime/simulated/script';
import { detail, submit, waitForState } from '../support/jobs';
import { TEST_IMAGE, startService, testProjects, type TestService } from '../support/service';

/**
 * Capacity-aware placement on the simulated engine with nodes of three sizes: jobs of random
 * sizes never over-commit a node (checked while they run, from the hosts API, and afterwards,
 * from where and when each ran), and a job that fits no node says why in words.
 */
const GIB = 1024 ** 3;
let service: TestService;

beforeAll(async () => {
  const projects = testProjects();
  service = await startService({
    reconcile_interval_seconds: 1,
    max_running: 100,
    engine: {
      type: 'simulated',
      slots_per_node: 50,
      start_ms: 10,
      run_ms: 200,
      hosts: [
        { name: 'small', count: 2, cpus: 2, memory: '4g' },
        { name: 'big', cpus: 8, memory: '16g', gpus: 1 },
      ],
    },
    projects: {
      ...projects,
      t: {
        ...projects.t,
        queues: { ...projects.t.queues, wide: { max_running: 100 } },
        definitions: {
          ...projects.t.definitions,
          sized: {
            '1': {
              image: TEST_IMAGE,
              command: ['true'],
              resources: { cpus: 1, memory: '1g', max: { cpus: 8, memory: '32g', gpus: 2 } },
            },
          },
        },
      },
    },
  });
});
afterAll(() => service?.stop());

const sized = (resources: Record<string, number>, runMs: number) => ({
  job_definition: 't::sized:1',
  job_queue: 't::wide',
  resources,
  container_env: { [SIMULATE.runMs]: { value: String(runMs) } },
});

async function hosts(): Promise<HostList> {
  const response = await service.request('GET', '/v1/client/hosts');
  expect(response.status).toBe(200);
  return response.body.data as HostList;
}

function expectNoneOverCommitted(list: HostList): void {
  for (const host of list.items) {
    expect(host.used.cpus).toBeLessThanOrEqual(host.capacity.cpus + 1e-9);
    expect(host.used.memory_bytes).toBeLessThanOrEqual(host.capacity.memory_bytes);
    expect(host.used.gpus).toBeLessThanOrEqual(host.capacity.gpus);
  }
}

async function noteOnceRunnable(id: string): Promise<string | null> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const job = await detail(service, id);
    if (job.state === 'runnable' && job.system_note?.startsWith('waiting: needs')) {
      return job.system_note;
    }
    if (Date.now() > deadline) return job.system_note;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('placement by resources on heterogeneous simulated nodes', () => {
  it('lists the nodes with their capacity', async () => {
    const list = await hosts();
    expect(list.placement).toBe(true);
    expect(list.items.map((h) => [h.name, h.state, h.capacity])).toEqual([
      ['big-1', 'ready', { cpus: 8, memory_bytes: 16 * GIB, gpus: 1 }],
      ['small-1', 'ready', { cpus: 2, memory_bytes: 4 * GIB, gpus: 0 }],
      ['small-2', 'ready', { cpus: 2, memory_bytes: 4 * GIB, gpus: 0 }],
    ]);
  });

  it('never over-commits a node, however mixed the sizes', async () => {
    // A fixed mix: small ones that fit anywhere, bigger ones only the big node takes, GPU ones.
    const sizes = Array.from({ length: 40 }, (_, i) => ({
      cpus: [0.5, 1, 2, 3, 6][i % 5]!,
      memory_bytes: [1, 2, 3, 6, 12][(i * 3) % 5]! * GIB,
      gpus: i % 7 === 0 ? 1 : 0,
    }));
    const ids = await Promise.all(
      sizes.map((r) => submit(service, sized(r, 150 + (r.cpus % 2) * 100))),
    );
    let polls = 0;
    const settled = Promise.all(ids.map((id) => waitForState(service, id, 'completed', 60_000)));
    let done = false;
    void settled.finally(() => (done = true));
    while (!done) {
      expectNoneOverCommitted(await hosts());
      polls += 1;
      await new Promise((r) => setTimeout(r, 30));
    }
    await settled;
    expect(polls).toBeGreaterThan(3);

    // From where and when each ran: at every start, what ran on that node fits in it.
    const capacity = new Map((await hosts()).items.map((h) => [h.id, h.capacity]));
    const runs = await Promise.all(
      ids.map(async (id, i) => {
        const response = await service.request('GET', `/v1/client/job/${id}/execution`);
        const execution = response.body.data as JobExecution;
        expect(execution.resources).toEqual(sizes[i]);
        return {
          ...sizes[i]!,
          host: execution.host!,
          from: execution.started_at!,
          to: execution.finished_at!,
        };
      }),
    );
    for (const run of runs) {
      expect(capacity.has(run.host)).toBe(true);
      const beside = runs.filter(
        (r) => r.host === run.host && r.from <= run.from && r.to > run.from,
      );
      const sum = (key: 'cpus' | 'memory_bytes' | 'gpus') => beside.reduce((s, r) => s + r[key], 0);
      const room = capacity.get(run.host)!;
      expect(sum('cpus')).toBeLessThanOrEqual(room.cpus + 1e-9);
      expect(sum('memory_bytes')).toBeLessThanOrEqual(room.memory_bytes);
      expect(sum('gpus')).toBeLessThanOrEqual(room.gpus);
    }
    // Only the big node has a GPU and more than 4 GiB: those jobs ran there.
    for (const run of runs.filter((r) => r.gpus > 0 || r.memory_bytes > 4 * GIB)) {
      expect(capacity.get(run.host)!.gpus).toBe(1);
    }
  }, 120_000);

  it('says by dimension why a job fits no node now, and that one bigger than all waits for a bigger one', async () => {
    const holder = await submit(service, sized({ memory_bytes: 10 * GIB }, 600_000));
    await waitForState(service, holder, 'running');
    const waiting = await submit(service, sized({ memory_bytes: 12 * GIB }, 100));
    expect(await noteOnceRunnable(waiting)).toBe(
      'waiting: needs 12 GiB of memory; the most free on any host is 6 GiB (3 hosts)',
    );
    const huge = await submit(service, sized({ memory_bytes: 24 * GIB }, 100));
    expect(await noteOnceRunnable(huge)).toBe(
      'waiting: needs 24 GiB of memory; the largest host has 16 GiB (3 hosts): it starts once a host that big is ready',
    );
    const list = await hosts();
    const big = list.items.find((h) => h.name === 'big-1')!;
    expect(big.jobs).toEqual([
      expect.objectContaining({
        id: holder,
        state: 'running',
        resources: { cpus: 1, memory_bytes: 10 * GIB, gpus: 0 },
      }),
    ]);
    // Once the holder ends, the waiting job starts there.
    await service.request('POST', `/v1/client/job/${holder}/cancel`);
    await waitForState(service, waiting, 'completed');
    await service.request('POST', `/v1/client/job/${huge}/cancel`);
    await waitForState(service, huge, 'cancelled');
  }, 60_000);

  it('refuses a submission asking beyond the definition’s bounds, naming the field', async () => {
    const response = await service.request('POST', '/v1/client/job', sized({ gpus: 3 }, 100));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      ok: false,
      message: 'resources.gpus: asks for 3 GPUs; definition t::sized:1 allows at most 2 GPUs',
    });
  });
});
