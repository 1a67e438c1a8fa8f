import type { Host } from '../../jobs/placement';

/** A node as the manager lists it, with what placement reads of it. */
export interface SwarmNodeResources {
  ID: string;
  Description?: {
    Hostname?: string;
    Resources?: {
      NanoCPUs?: number;
      MemoryBytes?: number;
      GenericResources?: { DiscreteResourceSpec?: { Kind?: string; Value?: number } }[];
    };
  };
  Spec?: { Availability?: string };
  Status?: { State?: string };
}

// The kinds a node's generic resources name its GPUs by (dockerd's --node-generic-resource).
const GPU_KIND = /gpu/i;

/**
 * A node as a host: its CPUs, memory and GPUs (discrete generic resources whose kind names a
 * GPU). A node that is not up is lost; one up but drained or paused takes no new work.
 */
export function hostOfNode(node: SwarmNodeResources): Host {
  const resources = node.Description?.Resources ?? {};
  const gpus = (resources.GenericResources ?? [])
    .map((r) => r.DiscreteResourceSpec)
    .filter((spec) => spec !== undefined && GPU_KIND.test(spec.Kind ?? ''))
    .reduce((sum, spec) => sum + (spec?.Value ?? 0), 0);
  const up = node.Status?.State === 'ready';
  const active = (node.Spec?.Availability ?? 'active') === 'active';
  return {
    id: node.ID,
    name: node.Description?.Hostname ?? node.ID,
    cpus: (resources.NanoCPUs ?? 0) / 1e9,
    memoryBytes: resources.MemoryBytes ?? 0,
    gpus,
    state: !up ? 'lost' : active ? 'ready' : 'drained',
  };
}
