import type Docker from 'dockerode';
import type { Workload } from '../../jobs/ports';
import { JOB_LABEL, attemptOf } from '../job-container';
import { CANCEL_CONSTRAINT, constraintsOf, pinnedNodeOf } from './service-spec';

/** The fields of a swarm service (GET /services) that Jobdeck reads. */
export interface SwarmService {
  ID: string;
  Version?: { Index?: number };
  Spec?: Docker.ServiceSpec;
}

/** The fields of a swarm task (GET /tasks, API 1.41) that Jobdeck reads. */
export interface SwarmTask {
  ID: string;
  ServiceID: string;
  NodeID?: string;
  CreatedAt: string;
  Spec?: { Placement?: { Constraints?: string[] } };
  Status: {
    Timestamp: string;
    State: string;
    Message?: string;
    Err?: string;
    ContainerStatus?: { ContainerID?: string; ExitCode?: number };
  };
}

/** The fields of a swarm node (GET /nodes) that Jobdeck reads. */
export interface SwarmNode {
  ID: string;
  Description?: {
    Hostname?: string;
    Platform?: { OS?: string; Architecture?: string };
    Resources?: {
      NanoCPUs?: number;
      MemoryBytes?: number;
      GenericResources?: SwarmGenericResource[];
    };
    Engine?: { Labels?: Record<string, string> };
  };
  Spec?: { Availability?: string; Role?: string; Labels?: Record<string, string> };
  Status?: { State?: string; Message?: string };
}

/** A resource a node's engine advertises (`node-generic-resources`): counted, or named one by one. */
export interface SwarmGenericResource {
  DiscreteResourceSpec?: { Kind?: string; Value?: number };
  NamedResourceSpec?: { Kind?: string; Value?: string };
}

const WAITING_FOR_A_NODE = new Set(['new', 'allocated', 'pending']);
const STARTING_ON_ITS_NODE = new Set(['assigned', 'accepted', 'preparing', 'ready', 'starting']);
// `failed` with this error is the job's own non-zero exit; any other error is the engine's.
const OWN_EXIT = /^task: non-zero exit \(\d+\)$/;

/** "1 node does", "3 nodes do". */
const nodesThat = (count: string, one: string, many: string) =>
  count === '1' ? `1 node ${one}` : `${count} nodes ${many}`;

/** What the swarm's words mean for the job, said so that a user can act on it. */
const messages = {
  notCreatedYet: 'waiting for the swarm to create its task',
  notPlacedYet: 'waiting for the swarm to place it on a node',
  onItsNode: (state: string, node: string) => `${state} on node ${node}`,
  constraints: (count: string, constraints: string[]) =>
    `${nodesThat(count, 'does', 'do')} not match the placement constraints ${constraints.join(', ')}`,
  resources: (count: string, cpus: number, memoryBytes: number) =>
    `${nodesThat(count, 'lacks', 'lack')} ${cpus} CPUs and ${Math.round(memoryBytes / 1024 ** 2)} MiB of memory unreserved (other jobs hold them, or no node is that big)`,
  unavailable: (count: string) => `${nodesThat(count, 'is', 'are')} drained, paused or down`,
  noNodeCanTakeIt: (reasons: string[]) => `no node can take it: ${reasons.join('; ')}`,
  nodeLost: (node: string, why: string) =>
    `its node ${node} stopped answering the swarm (${why}), so whether it ran to the end is unknown; submit it again`,
  drained: (node: string) => `the swarm stopped it because its node ${node} was drained`,
  pinnedNodeGone: (node: string, what: string) =>
    `its node ${node} ${what} before it started, so nothing ran; submit it again`,
  stoppedBySwarm: (node: string) =>
    `the swarm stopped it without Jobdeck asking (its node ${node} was drained, lost, or the service changed)`,
  withExitCode: (message: string, exitCode: number | null) =>
    `${message}${exitCode === null ? '' : ` (exit code ${exitCode})`}; submit it again`,
  imageMissing: (image: string, node: string) =>
    `image ${image} is not on the swarm's nodes (node ${node} has none); load it on every node (docker image ls on each lists what is present)`,
  couldNotRun: (node: string, state: string, reason: string) =>
    `the swarm could not run it on node ${node} (${state}): ${reason}`,
};

/**
 * Why a task pinned to a node (the one Jobdeck placed it on) can never be placed: the node was
 * drained, went down or left the swarm after Jobdeck chose it. Null while it may still be: a
 * paused node, or one whose state is unknown (a manager that just restarted), takes work again.
 */
function pinnedNodeGone(task: SwarmTask, nodes: ReadonlyMap<string, SwarmNode>): string | null {
  const pinned = pinnedNodeOf(task.Spec?.Placement?.Constraints ?? []);
  if (pinned === null) return null;
  const node = nodes.get(pinned);
  const name = node?.Description?.Hostname ?? pinned;
  if (!node) return messages.pinnedNodeGone(name, 'left the swarm');
  if (node.Status?.State === 'down') {
    return messages.pinnedNodeGone(
      name,
      `stopped answering the swarm (${node.Status.Message || 'down'})`,
    );
  }
  if (node.Spec?.Availability === 'drain') return messages.pinnedNodeGone(name, 'was drained');
  return null;
}

/** The scheduler's reasons ("no suitable node (…; …)") in words about this job. */
function placementMessage(err: string, spec: Docker.ServiceSpec | undefined): string {
  const reasons = /^no suitable node \((.*)\)$/.exec(err)?.[1];
  if (!reasons) return err;
  const reserved = spec?.TaskTemplate?.Resources?.Reservations;
  return messages.noNodeCanTakeIt(
    reasons.split('; ').map((reason) => {
      const count = /(\d+) nodes?/.exec(reason)?.[1];
      if (count && reason.startsWith('scheduling constraints not satisfied')) {
        return messages.constraints(count, constraintsOf(spec));
      }
      if (count && reason.startsWith('insufficient resources')) {
        return messages.resources(
          count,
          (reserved?.NanoCPUs ?? 0) / 1e9,
          reserved?.MemoryBytes ?? 0,
        );
      }
      if (count && reason.includes('not available for new tasks')) {
        return messages.unavailable(count);
      }
      return reason;
    }),
  );
}

const imageOf = (spec: Docker.ServiceSpec | undefined) =>
  (spec?.TaskTemplate && 'ContainerSpec' in spec.TaskTemplate
    ? spec.TaskTemplate.ContainerSpec?.Image
    : undefined) ?? 'of the job';

/** The job's one run: the replacement task that Jobdeck's stop leaves can never be placed. */
function firstRun(tasks: readonly SwarmTask[]): SwarmTask | undefined {
  return tasks
    .filter((t) => !(t.Spec?.Placement?.Constraints ?? []).includes(CANCEL_CONSTRAINT))
    .sort((a, b) => Date.parse(a.CreatedAt) - Date.parse(b.CreatedAt))[0];
}

/**
 * The job's workload as the swarm reports it, from its service, the service's tasks and the
 * swarm's nodes. A task on a node the swarm has marked down still says `running`; the swarm gives
 * it up (restart condition none: it runs nowhere else), and so does this mapping, saying why.
 */
export function workloadOf(
  service: SwarmService,
  tasks: readonly SwarmTask[],
  nodes: ReadonlyMap<string, SwarmNode>,
): Workload {
  const base: Workload = {
    id: service.ID,
    jobId: service.Spec?.Labels?.[JOB_LABEL] ?? '',
    attempt: attemptOf(service.Spec?.Labels),
    status: 'pending',
    exitCode: null,
    startedAt: null,
    finishedAt: null,
    node: null,
    message: null,
  };
  const stopRequested = constraintsOf(service.Spec).includes(CANCEL_CONSTRAINT);
  const task = firstRun(tasks);
  if (!task) {
    // Stopped before the swarm made a task: nothing ran.
    return stopRequested
      ? { ...base, status: 'exited' }
      : { ...base, message: messages.notCreatedYet };
  }
  const { State: state, Err: err, Message: said } = task.Status;
  if (WAITING_FOR_A_NODE.has(state)) {
    const gone = pinnedNodeGone(task, nodes);
    if (gone) return { ...base, status: 'exited', message: gone, cause: 'node_lost' };
    return { ...base, message: err ? placementMessage(err, service.Spec) : messages.notPlacedYet };
  }

  const nodeId = task.NodeID ?? '';
  const node = nodes.get(nodeId);
  const hostname = node?.Description?.Hostname ?? nodeId;
  const at = Date.parse(task.Status.Timestamp);
  // A task that never got a container has no exit code (the API says 0 for it).
  const exitCode = task.Status.ContainerStatus?.ContainerID
    ? (task.Status.ContainerStatus.ExitCode ?? null)
    : null;
  const placed = { ...base, node: hostname };
  const ended = { ...placed, status: 'exited', finishedAt: at } as const;
  if (STARTING_ON_ITS_NODE.has(state) || state === 'running') {
    if (!node || node.Status?.State === 'down') {
      const why = node ? (node.Status?.Message ?? 'down') : 'removed from the swarm';
      const message = messages.nodeLost(hostname, why);
      return { ...placed, status: 'exited', message, cause: 'node_lost' };
    }
    return state === 'running'
      ? { ...placed, status: 'running', startedAt: at }
      : { ...placed, message: messages.onItsNode(state, hostname) };
  }
  switch (state) {
    case 'complete':
      return { ...ended, exitCode };
    case 'failed':
      if (err && OWN_EXIT.test(err)) return { ...ended, exitCode };
      break;
    case 'shutdown': {
      if (stopRequested) return { ...ended, exitCode };
      const why =
        node?.Spec?.Availability === 'drain'
          ? messages.drained(hostname)
          : messages.stoppedBySwarm(hostname);
      const message = messages.withExitCode(why, exitCode);
      return { ...ended, exitCode, message, cause: 'node_lost' };
    }
    case 'rejected':
      if (err && /No such image/i.test(err)) {
        return { ...ended, message: messages.imageMissing(imageOf(service.Spec), hostname) };
      }
      break;
    case 'orphaned':
      return { ...ended, message: messages.nodeLost(hostname, 'orphaned'), cause: 'node_lost' };
  }
  return {
    ...ended,
    message: messages.couldNotRun(hostname, state, err ?? said ?? 'no reason given'),
  };
}
