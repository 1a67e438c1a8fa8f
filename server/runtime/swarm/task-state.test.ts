import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KEPT_OUTPUT_BYTES } from '../../config/schema';
import { DEFAULT_RUN_OPTIONS } from '../../jobs/model';
import { engineLogDriver } from '../job-container';
import { serviceSpec, cancelledSpec } from './service-spec';
import { workloadOf, type SwarmNode, type SwarmService, type SwarmTask } from './task-state';

/** Shapes as the 20.10 manager returns them (docs/engines.md), cut to what is read. */
const spec = serviceSpec(
  {
    jobId: 'j1',
    attempt: 1,
    image: 'jobdeck/busybox:local',
    command: ['true'],
    env: [],
    cpus: 0.5,
    memoryBytes: 64 * 1024 ** 2,
    pidsLimit: 64,
    stopGraceSeconds: 2,
    network: 'none',
    runOptions: DEFAULT_RUN_OPTIONS,
    host: null,
  },
  {
    storeId: 's1',
    labels: {},
    constraints: ['node.labels.gpu==true'],
    init: true,
    logDriver: engineLogDriver(DEFAULT_KEPT_OUTPUT_BYTES),
  },
  'jobdeck-j1',
);
const service = (s: Docker.ServiceSpec = spec): SwarmService => ({ ID: 'svc1', Spec: s });

function node(id: string, state = 'ready', availability = 'active'): SwarmNode {
  const message = state === 'down' ? 'heartbeat failure' : '';
  return {
    ID: id,
    Description: { Hostname: `host-${id}` },
    Spec: { Availability: availability },
    Status: { State: state, Message: message },
  };
}
const nodes = (...list: SwarmNode[]) => new Map(list.map((n) => [n.ID, n]));

function task(
  state: string,
  extra: Partial<SwarmTask['Status']> & { NodeID?: string; CreatedAt?: string } = {},
): SwarmTask {
  const { NodeID = 'n2', CreatedAt = '2026-11-22T00:00:00.000Z', ...status } = extra;
  return {
    ID: `t-${state}`,
    ServiceID: 'svc1',
    NodeID: state === 'pending' ? '' : NodeID,
    CreatedAt,
    Spec: { Placement: { Constraints: ['node.labels.gpu==true'] } },
    Status: { Timestamp: '2026-11-22T00:00:05.000Z', State: state, Message: state, ...status },
  };
}
const container = (ExitCode: number) => ({ ContainerStatus: { ContainerID: 'c1', ExitCode } });

describe('a swarm task as a workload', () => {
  it('waits for placement, saying in the job terms why no node can take it', () => {
    const w = workloadOf(
      service(),
      [
        task('pending', {
          Err: 'no suitable node (scheduling constraints not satisfied on 1 node; insufficient resources on 2 nodes)',
        }),
      ],
      nodes(node('n1'), node('n2')),
    );
    expect(w).toMatchObject({ status: 'pending', jobId: 'j1', node: null });
    expect(w.message).toBe(
      'no node can take it: 1 node does not match the placement constraints node.labels.gpu==true; 2 nodes lack 0.5 CPUs and 64 MiB of memory unreserved (other jobs hold them, or no node is that big)',
    );
  });

  it('says which node it is starting on', () => {
    const w = workloadOf(service(), [task('preparing')], nodes(node('n2')));
    expect(w).toMatchObject({
      status: 'pending',
      node: 'host-n2',
      message: 'preparing on node host-n2',
    });
  });

  it('runs on a named node from the time the task started', () => {
    const w = workloadOf(service(), [task('running', container(0))], nodes(node('n2')));
    expect(w).toMatchObject({
      status: 'running',
      node: 'host-n2',
      startedAt: Date.parse('2026-11-22T00:00:05.000Z'),
      exitCode: null,
    });
  });

  it('ends with the exit code of the job, and without a message when the job ended by itself', () => {
    const done = workloadOf(service(), [task('complete', container(0))], nodes(node('n2')));
    expect(done).toMatchObject({ status: 'exited', exitCode: 0, message: null });
    const failed = workloadOf(
      service(),
      [task('failed', { ...container(3), Err: 'task: non-zero exit (3)' })],
      nodes(node('n2')),
    );
    expect(failed).toMatchObject({ status: 'exited', exitCode: 3, message: null });
  });

  it('gives up a task whose node is down, though the swarm still says running', () => {
    const w = workloadOf(service(), [task('running', container(0))], nodes(node('n2', 'down')));
    expect(w).toMatchObject({ status: 'exited', exitCode: null, node: 'host-n2' });
    expect(w.message).toBe(
      'its node host-n2 stopped answering the swarm (heartbeat failure), so whether it ran to the end is unknown; submit it again',
    );
    const removed = workloadOf(service(), [task('running', container(0))], nodes());
    expect(removed.message).toContain('(removed from the swarm)');
  });

  it('keeps a task on a node whose state is merely unknown (a manager that just restarted)', () => {
    const w = workloadOf(service(), [task('running', container(0))], nodes(node('n2', 'unknown')));
    expect(w.status).toBe('running');
  });

  it('reads the exit code of the stop Jobdeck asked for, ignoring the replacement that never runs', () => {
    const original = task('shutdown', { ...container(143), CreatedAt: '2026-11-22T00:00:00.000Z' });
    const replacement: SwarmTask = {
      ...task('pending', { CreatedAt: '2026-11-22T00:00:09.000Z' }),
      Spec: {
        Placement: { Constraints: cancelledSpec(spec).TaskTemplate!.Placement!.Constraints },
      },
    };
    const w = workloadOf(service(cancelledSpec(spec)), [replacement, original], nodes(node('n2')));
    expect(w).toMatchObject({ status: 'exited', exitCode: 143, message: null, node: 'host-n2' });
  });

  it('says a drain ended it when the swarm shut it down on a drained node', () => {
    const w = workloadOf(
      service(),
      [task('shutdown', container(0))],
      nodes(node('n2', 'ready', 'drain')),
    );
    expect(w).toMatchObject({ status: 'exited', exitCode: 0 });
    expect(w.message).toBe(
      'the swarm stopped it because its node host-n2 was drained (exit code 0); submit it again',
    );
  });

  it('ends a task rejected for a missing image with no exit code, naming the image', () => {
    const w = workloadOf(
      service(),
      [task('rejected', { Err: 'No such image: jobdeck/busybox:local', ContainerStatus: {} })],
      nodes(node('n2')),
    );
    expect(w).toMatchObject({ status: 'exited', exitCode: null });
    expect(w.message).toBe(
      "image jobdeck/busybox:local is not on the swarm's nodes (node host-n2 has none); load it on every node (docker image ls on each lists what is present)",
    );
  });

  it('ends a task the node could not start with the engine words and no exit code', () => {
    const w = workloadOf(
      service(),
      [
        task('failed', {
          ...container(127),
          Err: 'starting container failed: exec: "nope": not found',
        }),
      ],
      nodes(node('n2')),
    );
    expect(w).toMatchObject({ status: 'exited', exitCode: null });
    expect(w.message).toBe(
      'the swarm could not run it on node host-n2 (failed): starting container failed: exec: "nope": not found',
    );
  });
});

describe('a task pinned to the node Jobdeck placed it on', () => {
  const pinned = (constraints: string[]): SwarmTask => ({
    ...task('pending', {
      Err: 'no suitable node (scheduling constraints not satisfied on 2 nodes)',
    }),
    Spec: { Placement: { Constraints: constraints } },
  });
  const workloadOn = (...list: SwarmNode[]) =>
    workloadOf(service(), [pinned(['node.role==worker', 'node.id==n2'])], nodes(...list));

  it('waits while its node may still take it: ready, paused, or of unknown state', () => {
    for (const n of [node('n2'), node('n2', 'ready', 'pause'), node('n2', 'unknown')]) {
      expect(workloadOn(node('n1'), n)).toMatchObject({ status: 'pending', exitCode: null });
    }
  });

  it('ends without running once its node is drained, down or gone: nothing ran', () => {
    expect(workloadOn(node('n1'), node('n2', 'ready', 'drain'))).toMatchObject({
      status: 'exited',
      exitCode: null,
      cause: 'node_lost',
      message: 'its node host-n2 was drained before it started, so nothing ran; submit it again',
    });
    expect(workloadOn(node('n2', 'down')).message).toBe(
      'its node host-n2 stopped answering the swarm (heartbeat failure) before it started, so nothing ran; submit it again',
    );
    expect(workloadOn(node('n1')).message).toBe(
      'its node n2 left the swarm before it started, so nothing ran; submit it again',
    );
  });

  it("is not taken for pinned by the cancel's constraint", () => {
    const cancelled = pinned(['node.role==worker', 'node.id==jobdeck-cancelled']);
    expect(workloadOf(service(), [cancelled], nodes(node('n1'))).status).toBe('pending');
  });
});
