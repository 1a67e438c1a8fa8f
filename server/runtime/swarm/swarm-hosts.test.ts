import { describe, expect, it } from 'vitest';
import { hostOfNode } from './swarm-hosts';

describe('a swarm node as a host', () => {
  it('reads its CPUs, memory and GPUs, ready while up and active', () => {
    expect(
      hostOfNode({
        ID: 'n1',
        Description: {
          Hostname: 'worker-1',
          Resources: {
            NanoCPUs: 4e9,
            MemoryBytes: 8 * 1024 ** 3,
            GenericResources: [
              { DiscreteResourceSpec: { Kind: 'NVIDIA-GPU', Value: 2 } },
              { DiscreteResourceSpec: { Kind: 'ssd', Value: 1 } },
            ],
          },
        },
        Spec: { Availability: 'active' },
        Status: { State: 'ready' },
      }),
    ).toEqual({
      id: 'n1',
      name: 'worker-1',
      cpus: 4,
      memoryBytes: 8 * 1024 ** 3,
      gpus: 2,
      state: 'ready',
    });
  });

  it('is drained when drained or paused, lost when not up', () => {
    const node = (availability: string, state: string) =>
      hostOfNode({ ID: 'n', Spec: { Availability: availability }, Status: { State: state } }).state;
    expect(node('drain', 'ready')).toBe('drained');
    expect(node('pause', 'ready')).toBe('drained');
    expect(node('active', 'down')).toBe('lost');
    expect(node('drain', 'disconnected')).toBe('lost');
  });
});
