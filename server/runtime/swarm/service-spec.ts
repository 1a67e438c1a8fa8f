import type Docker from 'dockerode';
import type { WorkloadSpec } from '../../jobs/ports';
import {
  JOB_CAPABILITIES,
  SCRATCH_BYTES,
  SCRATCH_DIR,
  jobLabels,
  workloadName,
  type EngineLogDriver,
} from '../job-container';

/**
 * A constraint no node matches. Jobdeck stops a job by adding it to the service: the rolling
 * update stops the running task with its grace period, the task ends `shutdown` with its exit
 * code and stays in the task history, and the replacement task can never be placed. A delete
 * would stop it too, but the task reaper drops the record ~250 ms later, exit code and all.
 */
export const CANCEL_CONSTRAINT = 'node.id==jobdeck-cancelled';

/** How a job with network `none` is kept off every network. */
export type SwarmIsolation = 'job-network' | 'node-bridge';

export interface ServiceSpecOptions {
  storeId: string;
  labels: Record<string, string>;
  /** Where every job may run (node.labels.jobs==true, node.role==worker, …), before the definition's. */
  constraints: string[];
  init: boolean;
  /** How much output the engine keeps per task. */
  logDriver: EngineLogDriver;
}

/**
 * One job is one replicated service of one replica that is never restarted: on Engine 20.10 the
 * `replicated-job` mode runs a failed job again after a manager restart, ignores a drained node
 * and leaks its task when removed (docs/engines.md).
 *
 * @param network the swarm network to attach, or undefined for the node's default bridge
 */
export function serviceSpec(
  spec: WorkloadSpec,
  options: ServiceSpecOptions,
  network: string | undefined,
): Docker.ServiceSpec {
  const labels = jobLabels(options.labels, spec, options.storeId);
  const limits = { NanoCPUs: nanoCpus(spec.cpus), MemoryBytes: spec.memoryBytes };
  return {
    Name: workloadName(spec.jobId),
    Labels: labels,
    Mode: { Replicated: { Replicas: 1 } },
    TaskTemplate: {
      ContainerSpec: {
        Image: spec.image,
        // Args, not Command: like the local engine's Cmd, it keeps the image's entrypoint.
        Args: spec.command.length > 0 ? spec.command : undefined,
        Env: spec.env,
        Labels: labels,
        Init: options.init,
        ...(spec.runOptions.user !== null && { User: spec.runOptions.user }),
        ReadOnly: spec.runOptions.readOnlyRootfs,
        // Swarm's tmpfs (API 1.41) takes a size and a mode only: not noexec/nosuid as locally.
        ...(spec.runOptions.readOnlyRootfs && {
          Mounts: [
            {
              Type: 'tmpfs',
              Source: '', // none for tmpfs; the type wants the field
              Target: SCRATCH_DIR,
              TmpfsOptions: { SizeBytes: SCRATCH_BYTES, Mode: 0o1777 },
            },
          ],
        }),
        // Fixed here: a task is stopped with the grace period of the spec it was made from.
        StopGracePeriod: spec.stopGraceSeconds * 1e9,
        CapabilityDrop: ['ALL'],
        CapabilityAdd: JOB_CAPABILITIES,
      },
      Resources: {
        Limits: { ...limits, Pids: spec.pidsLimit },
        Reservations: reservationsOf(spec, limits),
      },
      RestartPolicy: { Condition: 'none' },
      Placement: { Constraints: constraintsFor(spec, options) },
      Networks: network === undefined ? undefined : [{ Target: network }],
      LogDriver: { Name: options.logDriver.Type, Options: options.logDriver.Config },
    },
    // Only Jobdeck's cancel updates a service; stop-first so that the replacement task (which
    // can never be placed) is not even tried before the running one has stopped.
    UpdateConfig: { Parallelism: 1, Order: 'stop-first', FailureAction: 'continue' },
    // No virtual IP: nothing connects to a batch job by its service name.
    EndpointSpec: { Mode: 'dnsrr' },
  };
}

const PIN = 'node.id==';

/** The node a task's constraints pin it to (Jobdeck's placement, or anyone's), if any. */
export function pinnedNodeOf(constraints: readonly string[]): string | null {
  const pins = constraints.filter((c) => c.startsWith(PIN) && c !== CANCEL_CONSTRAINT);
  return pins.at(-1)?.slice(PIN.length) ?? null;
}

const nanoCpus = (cpus: number) => Math.round(cpus * 1e9);

/**
 * The swarm's scheduler places a task only where its reservations fit beside the others', also
 * beside services that are not Jobdeck's (which Jobdeck's placement does not see), so jobs on one
 * node never overcommit it. A job Jobdeck placed reserves what Jobdeck counts it as holding (its
 * request), so that the swarm's books agree with Jobdeck's; any other reserves its limits.
 */
function reservationsOf(
  spec: WorkloadSpec,
  limits: { NanoCPUs: number; MemoryBytes: number },
): { NanoCPUs: number; MemoryBytes: number } {
  if (spec.host === null || !spec.resources) return limits;
  return { NanoCPUs: nanoCpus(spec.resources.cpus), MemoryBytes: spec.resources.memoryBytes };
}

/**
 * The engine's constraints, then the definition's: a node must satisfy all of them. A job whose
 * definition has none runs on the node Jobdeck placed it on; one whose definition has some is
 * placed by the swarm among the nodes they allow (Jobdeck's placement does not read them).
 */
function constraintsFor(spec: WorkloadSpec, options: ServiceSpecOptions): string[] {
  const own = spec.runOptions.placement;
  const pinned = spec.host !== null && own.length === 0 ? [`${PIN}${spec.host}`] : [];
  return [...options.constraints, ...own, ...pinned];
}

export function constraintsOf(spec: Docker.ServiceSpec | undefined): string[] {
  return spec?.TaskTemplate?.Placement?.Constraints ?? [];
}

/** The spec that stops the job (see CANCEL_CONSTRAINT). */
export function cancelledSpec(spec: Docker.ServiceSpec): Docker.ServiceSpec {
  const template = spec.TaskTemplate ?? {};
  return {
    ...spec,
    TaskTemplate: {
      ...template,
      Placement: {
        ...template.Placement,
        Constraints: [...constraintsOf(spec), CANCEL_CONSTRAINT],
      },
    },
  };
}
