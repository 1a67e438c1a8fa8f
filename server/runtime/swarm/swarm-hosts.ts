import type { EngineHosts } from '../../jobs/ports';
import type { Host, HostState } from '../../jobs/placement';
import type { SwarmGenericResource, SwarmNode } from './task-state';

/** What of each node is kept for everything else (engine.capacity). */
export interface NodeReserve {
  cpus: number;
  memoryBytes: number;
}

// Generic resources named so by the usual setups: `gpu`, `NVIDIA-GPU`, `AMD-GPU`.
const GPU_KIND = /gpu/i;

/** GPUs the node advertises: a count (discrete) or one per named device. */
function gpusOf(resources: SwarmGenericResource[] | undefined): number {
  let gpus = 0;
  for (const { DiscreteResourceSpec: counted, NamedResourceSpec: named } of resources ?? []) {
    if (counted && GPU_KIND.test(counted.Kind ?? '')) gpus += counted.Value ?? 0;
    if (named && GPU_KIND.test(named.Kind ?? '')) gpus += 1;
  }
  return gpus;
}

/**
 * A node that does not answer the manager (`down`, `unknown`, `disconnected`) is lost; one that
 * answers but takes no new task (`drain`, `pause`) is drained.
 */
function stateOf(node: SwarmNode): HostState {
  if (node.Status?.State !== 'ready') return 'lost';
  return node.Spec?.Availability === 'active' ? 'ready' : 'drained';
}

/** The swarm's node as a host: its CPUs and memory less the reserve, and its GPUs. */
export function hostOfNode(node: SwarmNode, reserve: NodeReserve): Host {
  const resources = node.Description?.Resources;
  return {
    id: node.ID,
    name: node.Description?.Hostname || node.ID,
    cpus: Math.max(0, (resources?.NanoCPUs ?? 0) / 1e9 - reserve.cpus),
    memoryBytes: Math.max(0, (resources?.MemoryBytes ?? 0) - reserve.memoryBytes),
    gpus: gpusOf(resources?.GenericResources),
    state: stateOf(node),
  };
}

/** The value a constraint's attribute has on the node; "" where it has none (as Swarm takes it). */
function attributeOf(node: SwarmNode, attribute: string): string {
  const labelOf = (labels: Record<string, string> | undefined, prefix: string) =>
    labels?.[attribute.slice(prefix.length)] ?? '';
  if (attribute.startsWith('node.labels.')) return labelOf(node.Spec?.Labels, 'node.labels.');
  if (attribute.startsWith('engine.labels.')) {
    return labelOf(node.Description?.Engine?.Labels, 'engine.labels.');
  }
  const fixed: Record<string, string | undefined> = {
    'node.id': node.ID,
    'node.hostname': node.Description?.Hostname,
    'node.role': node.Spec?.Role,
    'node.platform.os': node.Description?.Platform?.OS,
    'node.platform.arch': node.Description?.Platform?.Architecture,
  };
  return fixed[attribute] ?? '';
}

const CONSTRAINT = /^\s*(\S+?)\s*(==|!=)\s*(.*?)\s*$/;

/** Whether the node satisfies one placement constraint (as validated by the config: `a==b`, `a!=b`). */
export function nodeMatches(node: SwarmNode, constraint: string): boolean {
  const [, attribute = '', operator, expected = ''] = CONSTRAINT.exec(constraint) ?? [];
  // Swarm compares without regard to case.
  const equal = attributeOf(node, attribute).toLowerCase() === expected.toLowerCase();
  return operator === '==' ? equal : !equal;
}

/**
 * The nodes Jobdeck's jobs may run on (those matching the engine's constraints: on any other a job
 * placed there could never start) as hosts. Never final: nodes join a swarm at any time.
 */
export function swarmHosts(
  nodes: readonly SwarmNode[],
  constraints: readonly string[],
  reserve: NodeReserve,
): EngineHosts {
  return {
    fixed: false,
    hosts: nodes
      .filter((node) => constraints.every((constraint) => nodeMatches(node, constraint)))
      .map((node) => hostOfNode(node, reserve)),
  };
}
