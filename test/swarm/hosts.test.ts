import { afterAll, describe, expect, it } from 'vitest';
import type { HostList } from '../../contract';
import { nodeOfJob } from '../support/engine-cases';
import { detail, submit, waitForState } from '../support/jobs';
import { NODES, hostname, onNode, repairSwarm } from '../support/swarm';
import { swarmServiceForFile } from './swarm';

/**
 * The swarm's nodes as Jobdeck's hosts. The three nodes share one machine, so each reports all of
 * its memory: the per-node reserve leaves each 300 MiB for jobs, so that two jobs of 200 MiB
 * never share a node.
 */
const MIB = 1024 ** 2;
const NODE_ROOM = 300 * MIB;
const machineMemory = Number(onNode(1, 'info', '--format', '{{.MemTotal}}'));
const machineCpus = Number(onNode(1, 'info', '--format', '{{.NCPU}}'));
const swarm = swarmServiceForFile({ capacity: { reserve_memory: machineMemory - NODE_ROOM } });

afterAll(() => repairSwarm()); // undoes a drain a failed test left

const nodeId = (n: number) => onNode(1, 'node', 'inspect', '--format', '{{.ID}}', hostname(n));

async function hostsNow(): Promise<HostList> {
  const response = await swarm.service.request('GET', '/v1/client/hosts');
  expect(response.status).toBe(200);
  return response.body.data as HostList;
}

const stateOfNode = async (n: number) =>
  (await hostsNow()).items.find((h) => h.name === hostname(n))?.state;

const longJob = () =>
  submit(swarm.service, { job_definition: 't::mem200:1', job_queue: 't::wide' });

/** What the stored service of the job asks the swarm for: where, and what it reserves. */
function serviceOf(id: string) {
  const format =
    '{{json .Spec.TaskTemplate.Placement.Constraints}} {{json .Spec.TaskTemplate.Resources.Reservations}}';
  const [constraints = '', reservations = ''] = onNode(
    1,
    'service',
    'inspect',
    '--format',
    format,
    `jobdeck-${id}`,
  ).split(' ');
  return {
    constraints: JSON.parse(constraints) as string[],
    reservations: JSON.parse(reservations) as { MemoryBytes?: number; NanoCPUs?: number },
  };
}

describe("the swarm's nodes as hosts", () => {
  it('lists every node with its CPUs and its memory less the reserve', async () => {
    const list = await hostsNow();
    expect(list.placement).toBe(true);
    expect(list.items).toEqual(
      NODES.map((n) => ({
        id: nodeId(n),
        name: hostname(n),
        state: 'ready',
        capacity: { cpus: machineCpus, memory_bytes: NODE_ROOM, gpus: 0 },
        used: { cpus: 0, memory_bytes: 0, gpus: 0 },
        jobs: [],
        other_jobs: 0,
      })),
    );
  });

  it('places jobs only on nodes with room and never on a drained one; a job that fits none waits', async () => {
    onNode(1, 'node', 'update', '--availability', 'drain', hostname(3));
    await expect.poll(() => stateOfNode(3), { timeout: 10_000 }).toBe('drained');

    const first = await longJob();
    const second = await longJob();
    const third = await longJob();
    await waitForState(swarm.service, first, 'running', 60_000);
    await waitForState(swarm.service, second, 'running', 60_000);
    // 400 MiB together: more than one node's 300 MiB, so one on each node that takes work.
    const nodes = [await nodeOfJob(swarm.service, first), await nodeOfJob(swarm.service, second)];
    expect(nodes.toSorted()).toEqual([hostname(1), hostname(2)]);
    // Each service runs where Jobdeck placed it, reserving what Jobdeck counts.
    const firstNode = NODES.find((n) => hostname(n) === nodes[0])!;
    expect(serviceOf(first)).toEqual({
      constraints: [`node.id==${nodeId(firstNode)}`],
      reservations: { MemoryBytes: 200 * MIB },
    });

    // The third fits no node that takes work (the drained one has all its room), and says so.
    await expect
      .poll(async () => (await detail(swarm.service, third)).system_note, { timeout: 10_000 })
      .toBe('waiting: needs 200 MiB of memory; the most free on any host is 100 MiB (2 hosts)');
    expect((await detail(swarm.service, third)).state).toBe('runnable');
    const used = (await hostsNow()).items.map((h) => h.used.memory_bytes);
    expect(used).toEqual([200 * MIB, 200 * MIB, 0]);

    // Room made on the first's node: the third starts there.
    await swarm.service.request('POST', `/v1/client/job/${first}/cancel`);
    await waitForState(swarm.service, third, 'running', 60_000);
    expect(await nodeOfJob(swarm.service, third)).toBe(nodes[0]);

    for (const id of [second, third]) {
      await swarm.service.request('POST', `/v1/client/job/${id}/cancel`);
    }
    for (const id of [first, second, third]) await waitForState(swarm.service, id, 'cancelled');
    const byJob = await swarm.starts.byJob();
    for (const id of [first, second, third]) expect(byJob.get(id), id).toBe(1);
    onNode(1, 'node', 'update', '--availability', 'active', hostname(3));
    await expect.poll(() => stateOfNode(3), { timeout: 10_000 }).toBe('ready');
  });
});
