import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { AttemptsAnswer } from '../../contract';
import { detail, submit, waitForState } from '../support/jobs';
import { NODES, hostname, nodeSocket, onNode, repairSwarm } from '../support/swarm';
import { nodeOfJob } from '../support/engine-cases';
import { swarmServiceForFile } from './swarm';

// Jobs on the workers only: their faults never take the manager (and its API) down.
const swarm = swarmServiceForFile({ constraints: ['node.role==worker'] });

afterAll(() => repairSwarm()); // brings a stopped node back, undoes a drain

/** Four long jobs, spread by the swarm over both workers; the worker that got the first one. */
async function jobsOnWorkers() {
  const ids = await Promise.all(
    Array.from({ length: 4 }, () =>
      submit(swarm.service, {
        job_definition: 't::sleep:1',
        job_queue: 't::wide',
        container_cmd_parameter: { seconds: '300' },
      }),
    ),
  );
  for (const id of ids) await waitForState(swarm.service, id, 'running');
  const nodes = await Promise.all(ids.map((id) => nodeOfJob(swarm.service, id)));
  const victim = nodes[0]!;
  return {
    victim,
    onVictim: ids.filter((_, i) => nodes[i] === victim),
    elsewhere: ids.filter((_, i) => nodes[i] !== victim),
  };
}

/** The rest were not touched: still running; then cancelled, to free the queue. */
async function stillRunning(ids: string[]) {
  for (const id of ids) {
    expect((await detail(swarm.service, id)).state, id).toBe('running');
    await swarm.service.request('POST', `/v1/client/job/${id}/cancel`);
  }
  for (const id of ids) await waitForState(swarm.service, id, 'cancelled');
}

async function startedOnce(ids: string[]) {
  const byJob = await swarm.starts.byJob();
  for (const id of ids) expect(byJob.get(id), id).toBe(1);
}

const figure = (what: string, ms: number) => console.log(`figure: ${what}: ${ms} ms`);

describe('a node fails under running jobs', () => {
  it('drained: its jobs end as error saying so, once; the other node runs on', async () => {
    const { victim, onVictim, elsewhere } = await jobsOnWorkers();
    expect(onVictim.length).toBeGreaterThan(0);
    expect(elsewhere.length).toBeGreaterThan(0); // spread over both workers
    const drainedAt = Date.now();
    onNode(1, 'node', 'update', '--availability', 'drain', victim);
    for (const id of onVictim) {
      const job = await waitForState(swarm.service, id, 'error', 60_000);
      // sleep under the init ends on the drain's SIGTERM: 143.
      expect(job.system_note).toBe(
        `the swarm stopped it because its node ${victim} was drained (exit code 143); submit it again`,
      );
    }
    figure('node drained → its jobs settled', Date.now() - drainedAt);
    await stillRunning(elsewhere);
    await startedOnce([...onVictim, ...elsewhere]); // stopped, never placed again
    onNode(1, 'node', 'update', '--availability', 'active', victim);
  });

  it('drained, with a retry strategy: the job is tried again on another node and completes', async () => {
    const id = await submit(swarm.service, {
      job_definition: 't::sh:1',
      job_queue: 't::wide',
      container_cmd_parameter: { script: '[ "$JOBDECK_ATTEMPT" -ge 2 ] || sleep 300' },
      retry: {
        attempts: 2,
        backoff: { initial_seconds: 0 },
        on_exit: [
          { reason: 'node_lost', action: 'retry' },
          { exit_codes: ['0-255'], action: 'exit' },
        ],
      },
    });
    await waitForState(swarm.service, id, 'running');
    const victim = await nodeOfJob(swarm.service, id);
    const drainedAt = Date.now();
    onNode(1, 'node', 'update', '--availability', 'drain', victim);
    await waitForState(swarm.service, id, 'completed', 90_000);
    figure('node drained → the job retried elsewhere, completed', Date.now() - drainedAt);
    const answer = await swarm.service.request('GET', `/v1/client/job/${id}/attempts`);
    const items = (answer.body.data as AttemptsAnswer).items;
    expect(items.map((a) => [a.state, a.reason, a.retried])).toEqual([
      ['error', 'node_lost', true],
      ['completed', 'completed', false],
    ]);
    expect(items[0]!.node).toBe(victim);
    expect(items[1]!.node).not.toBe(victim);
    expect((await swarm.starts.byJob()).get(id)).toBe(2); // one task per attempt
    onNode(1, 'node', 'update', '--availability', 'active', victim);
  });

  it('dockerd stopped: its jobs end as error once the swarm marks it down; the other node runs on', async () => {
    const { victim, onVictim, elsewhere } = await jobsOnWorkers();
    const n = NODES.find((i) => hostname(i) === victim)!;
    expect(n).not.toBe(1);
    const pid = Number(readFileSync(nodeSocket(n).replace(/docker\.sock$/, 'docker.pid'), 'utf8'));
    const stoppedAt = Date.now();
    process.kill(pid, 'SIGTERM');
    for (const id of onVictim) {
      const job = await waitForState(swarm.service, id, 'error', 90_000);
      expect(job.system_note).toBe(
        `its node ${victim} stopped answering the swarm (heartbeat failure), so whether it ran to the end is unknown; submit it again`,
      );
    }
    figure('node dockerd stopped → its jobs settled', Date.now() - stoppedAt);
    await stillRunning(elsewhere);
    await startedOnce([...onVictim, ...elsewhere]);
  });
});
