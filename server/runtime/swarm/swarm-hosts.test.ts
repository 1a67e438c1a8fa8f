import { describe, expect, it } from 'vitest';
import { hostOfNode, nodeMatches, swarmHosts } from './swarm-hosts';
import type { SwarmNode } from './task-state';

const GIB = 1024 ** 3;
const NO_RESERVE = { cpus: 0, memoryBytes: 0 };

/** A node as the 20.10 manager lists it (GET /nodes), cut to what is read. */
function node(id: string, changes: Partial<SwarmNode> = {}): SwarmNode {
  return {
    ID: id,
    Description: {
      Hostname: `host-${id}`,
      Platform: { OS: 'linux', Architecture: 'x86_64' },
      Resources: { NanoCPUs: 4e9, MemoryBytes: 16 * GIB },
      Engine: { Labels: { zone: 'a' } },
    },
    Spec: { Availability: 'active', Role: 'worker', Labels: { pool: 'batch' } },
    Status: { State: 'ready' },
    ...changes,
  };
}

describe('a swarm node as a host', () => {
  it('has its id, hostname, CPUs and memory less the reserve, and no GPUs unless advertised', () => {
    expect(hostOfNode(node('n1'), { cpus: 0.5, memoryBytes: 2 * GIB })).toEqual({
      id: 'n1',
      name: 'host-n1',
      cpus: 3.5,
      memoryBytes: 14 * GIB,
      gpus: 0,
      state: 'ready',
    });
  });

  it('has nothing left, not less than nothing, when the reserve is bigger than the node', () => {
    const host = hostOfNode(node('n1'), { cpus: 8, memoryBytes: 32 * GIB });
    expect(host).toMatchObject({ cpus: 0, memoryBytes: 0 });
  });

  it('counts the GPUs it advertises as generic resources, counted or named', () => {
    const gpus = (kind: string) =>
      node('n1', {
        Description: {
          Hostname: 'g',
          Resources: {
            NanoCPUs: 8e9,
            MemoryBytes: GIB,
            GenericResources: [
              { DiscreteResourceSpec: { Kind: kind, Value: 2 } },
              { NamedResourceSpec: { Kind: 'NVIDIA-GPU', Value: 'GPU-1a2b' } },
              { NamedResourceSpec: { Kind: 'NVIDIA-GPU', Value: 'GPU-3c4d' } },
              { DiscreteResourceSpec: { Kind: 'ssd', Value: 5 } },
            ],
          },
        },
      });
    expect(hostOfNode(gpus('gpu'), NO_RESERVE).gpus).toBe(4);
    expect(hostOfNode(gpus('fpga'), NO_RESERVE).gpus).toBe(2);
  });

  it('is drained when drained or paused, lost when it does not answer the manager', () => {
    const stateOf = (availability: string, state: string) =>
      hostOfNode(
        node('n1', { Spec: { Availability: availability }, Status: { State: state } }),
        NO_RESERVE,
      ).state;
    expect(stateOf('active', 'ready')).toBe('ready');
    expect(stateOf('drain', 'ready')).toBe('drained');
    expect(stateOf('pause', 'ready')).toBe('drained');
    expect(stateOf('active', 'down')).toBe('lost');
    expect(stateOf('active', 'unknown')).toBe('lost');
    expect(stateOf('active', 'disconnected')).toBe('lost');
    expect(stateOf('drain', 'down')).toBe('lost');
  });

  it('is named by its id when it reports no hostname', () => {
    expect(hostOfNode(node('n1', { Description: {} }), NO_RESERVE)).toMatchObject({
      name: 'n1',
      cpus: 0,
      memoryBytes: 0,
    });
  });
});

describe("the swarm's hosts", () => {
  it('are every node matching the engine constraints, never final', () => {
    const manager = node('m1', { Spec: { Availability: 'active', Role: 'manager' } });
    const nodes = [manager, node('w1'), node('w2', { Status: { State: 'down' } })];
    expect(swarmHosts(nodes, [], NO_RESERVE)).toMatchObject({
      fixed: false,
      hosts: [
        { id: 'm1', state: 'ready' },
        { id: 'w1', state: 'ready' },
        { id: 'w2', state: 'lost' },
      ],
    });
    const workers = swarmHosts(nodes, ['node.role==worker'], NO_RESERVE);
    expect(workers.hosts.map((h) => h.id)).toEqual(['w1', 'w2']);
    expect(swarmHosts(nodes, ['node.role==worker', 'node.id!=w2'], NO_RESERVE).hosts).toEqual([
      expect.objectContaining({ id: 'w1' }),
    ]);
  });
});

describe('a placement constraint on a node', () => {
  const n = node('n1');
  it.each([
    ['node.id==n1', true],
    ['node.id!=n1', false],
    ['node.hostname==HOST-N1', true], // Swarm compares without regard to case
    ['node.role == worker', true],
    ['node.role!=manager', true],
    ['node.platform.os==linux', true],
    ['node.platform.arch==x86_64', true],
    ['node.labels.pool==batch', true],
    ['node.labels.pool!=batch', false],
    ['node.labels.gpu==true', false], // a label it lacks is ""
    ['node.labels.gpu!=true', true],
    ['engine.labels.zone==a', true],
    ['engine.labels.zone==b', false],
  ])('%s: %s', (constraint, matches) => {
    expect(nodeMatches(n, constraint)).toBe(matches);
  });
});
