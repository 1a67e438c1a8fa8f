import type Docker from 'dockerode';
import {
  RuntimeError,
  type ContainerRuntime,
  type EngineHosts,
  type OutputWindow,
  type Workload,
  type WorkloadOutput,
  type WorkloadSpec,
} from '../../jobs/ports';
import { engineClients, endpointText, type EngineEndpoint } from '../engine-api/connection';
import { detailOf, statusOf } from '../engine-api/errors';
import { engineLogs, readEngineOutput } from '../engine-output';
import { JOB_LABEL, STORE_LABEL, jobLabels, workloadName } from '../job-container';
import { ChangePoller } from '../change-poller';
import {
  CANCEL_CONSTRAINT,
  cancelledSpec,
  constraintsOf,
  serviceSpec,
  type ServiceSpecOptions,
  type SwarmIsolation,
} from './service-spec';
import { translate } from './swarm-errors';
import { swarmHosts, type NodeReserve } from './swarm-hosts';
import { workloadOf, type SwarmNode, type SwarmService, type SwarmTask } from './task-state';

export interface SwarmRuntimeOptions extends ServiceSpecOptions {
  endpoint: EngineEndpoint;
  isolation: SwarmIsolation;
  /** What of each node is kept for everything else (engine.capacity). */
  reserve: NodeReserve;
}

// The manager has no task events: how often waiting jobs are looked at. One listing of services,
// tasks and nodes per interval, answered from the manager's memory in a few ms.
const POLL_INTERVAL_MS = 250;
// A job network seen without its service at two sweeps this far apart is left over (from a crash
// between the two creates, or a service removed outside Jobdeck): a launch makes the service
// milliseconds after the network.
const SWEEP_INTERVAL_MS = 15_000;
// Concurrent updates of one service fail "update out of sequence"; the next try reads afresh.
const UPDATE_TRIES = 3;
const NETWORK_GONE = /network \S+ not found/;
const NETWORK_GONE_TRIES = 20;
const NETWORK_GONE_POLL_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The manager's answer to a second create of a name at once (its store's conflict, not a 409).
const NAME_TAKEN = /name conflicts with an existing object/;
/**
 * Docker Swarm through a manager's Engine API: each job is one service named after the job,
 * replicated with one replica and restart condition none, on the node Jobdeck placed it on.
 */
export class SwarmRuntime implements ContainerRuntime {
  private readonly quick: Docker;
  private readonly long: Docker;
  private readonly where: string;
  private readonly storeFilter: { label: string[] };
  private readonly poller = new ChangePoller(() => this.list(), POLL_INTERVAL_MS);
  private lastSweep = 0;
  /** Job networks seen without their service at the last sweep. */
  private orphanSuspects = new Set<string>();

  constructor(private readonly options: SwarmRuntimeOptions) {
    ({ quick: this.quick, long: this.long } = engineClients(options.endpoint));
    this.where = endpointText(options.endpoint);
    this.storeFilter = { label: [`${STORE_LABEL}=${options.storeId}`] };
  }

  /** Answers only when the manager can act: it is a manager and the swarm has a leader. */
  async ping(): Promise<void> {
    await this.quick.listNodes().catch((error: unknown) => {
      throw translate(error, 'answer', this.where);
    });
  }

  /** The nodes jobs may run on (the engine's constraints), with their resources less the reserve. */
  async hosts(): Promise<EngineHosts> {
    return swarmHosts(await this.listNodes(), this.options.constraints, this.options.reserve);
  }

  async launch(spec: WorkloadSpec): Promise<Workload> {
    for (let tries = 1; ; tries += 1) {
      const network = await this.networkFor(spec);
      try {
        await this.quick.createService(serviceSpec(spec, this.options, network));
        break;
      } catch (error) {
        // 409: the name is taken: this job's service was made before and the answer was lost.
        if (statusOf(error) === 409) break;
        // The network of the job's earlier attempt, still being removed when this one's create
        // found its name taken, is gone now: make it again (seen on a retry's launch).
        if (NETWORK_GONE.test(detailOf(error)) && tries < NETWORK_GONE_TRIES) {
          await sleep(NETWORK_GONE_POLL_MS);
          continue;
        }
        throw translate(error, 'create the service', this.where);
      }
    }
    const workload = await this.inspect(spec.jobId);
    if (!workload) {
      throw new RuntimeError('the service vanished (removed outside Jobdeck?) as it was created');
    }
    return workload;
  }

  /**
   * Swarm has no network mode `none`. The strictest that works on any swarm: a network of the
   * job's own, overlay and internal (an interface with no route out, and no other job on it).
   * `node-bridge` attaches none, which leaves the node's default bridge: isolated only where
   * every node's dockerd runs with --bridge=none.
   */
  private async networkFor(spec: WorkloadSpec): Promise<string | undefined> {
    if (spec.network !== 'none') return spec.network;
    if (this.options.isolation === 'node-bridge') return undefined;
    const name = workloadName(spec.jobId);
    try {
      await this.quick.createNetwork({
        Name: name,
        Driver: 'overlay',
        Internal: true,
        Attachable: false,
        CheckDuplicate: true,
        Labels: jobLabels(this.options.labels, spec, this.options.storeId),
      });
    } catch (error) {
      // Made before, and the answer lost (or the service's create failed after it); or made
      // by another launch of this job at this moment, which the manager refuses without a 409.
      if (statusOf(error) !== 409 && !NAME_TAKEN.test(detailOf(error))) {
        throw translate(error, 'create the job network', this.where);
      }
    }
    return name;
  }

  async inspect(jobId: string): Promise<Workload | null> {
    let service: SwarmService;
    try {
      service = (await this.quick.getService(workloadName(jobId)).inspect()) as SwarmService;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw translate(error, 'inspect the service', this.where);
    }
    if (service.Spec?.Labels?.[STORE_LABEL] !== this.options.storeId) return null;
    const [tasks, nodes] = await Promise.all([this.tasks({ service: [service.ID] }), this.nodes()]);
    return workloadOf(service, tasks, nodes);
  }

  async list(): Promise<Workload[]> {
    const [services, tasks, nodes] = await Promise.all([
      this.quick.listServices({ filters: this.storeFilter }).catch((error: unknown) => {
        throw translate(error, 'list the services', this.where);
      }),
      // A label filter on tasks matches their service's labels.
      this.tasks(this.storeFilter),
      this.nodes(),
    ]);
    const byService = new Map<string, SwarmTask[]>();
    for (const task of tasks)
      byService.set(task.ServiceID, [...(byService.get(task.ServiceID) ?? []), task]);
    this.sweepNetworks(services);
    return (services as SwarmService[]).map((service) =>
      workloadOf(service, byService.get(service.ID) ?? [], nodes),
    );
  }

  waitForChange(workload: Workload): Promise<void> {
    return this.poller.wait(workload);
  }

  /**
   * Swarm stops a task with the grace period its spec was made with (the job's), so
   * `graceSeconds` only says that the stop is due. See CANCEL_CONSTRAINT for how.
   */
  async stop(workload: Workload, _graceSeconds: number): Promise<void> {
    const service = this.quick.getService(workload.id);
    for (let attempt = 1; ; attempt += 1) {
      try {
        const current = (await service.inspect()) as SwarmService;
        if (!current.Spec || constraintsOf(current.Spec).includes(CANCEL_CONSTRAINT)) return;
        await service.update({
          _query: { version: current.Version?.Index },
          _body: cancelledSpec(current.Spec),
        });
        return;
      } catch (error) {
        if (statusOf(error) === 404) return; // gone: nothing left to stop
        if (attempt < UPDATE_TRIES && /out of sequence/i.test(detailOf(error))) continue;
        throw translate(error, 'stop the service', this.where);
      }
    }
  }

  async readOutput(workload: Workload, window: OutputWindow): Promise<WorkloadOutput> {
    try {
      return await readEngineOutput(
        engineLogs(this.quick, `/services/${workload.id}/logs`),
        window,
      );
    } catch (error) {
      throw translate(error, 'read the logs of the service', this.where);
    }
  }

  /** Removes the service (its tasks and containers with it), then the job's network. */
  async remove(workload: Workload): Promise<void> {
    try {
      await this.quick.getService(workload.id).remove();
    } catch (error) {
      if (statusOf(error) !== 404) throw translate(error, 'remove the service', this.where);
    }
    await this.removeJobNetwork(workloadName(workload.jobId));
  }

  private async tasks(filters: Record<string, string[]>): Promise<SwarmTask[]> {
    return (await this.quick.listTasks({ filters }).catch((error: unknown) => {
      throw translate(error, 'list the tasks', this.where);
    })) as SwarmTask[];
  }

  private async listNodes(): Promise<SwarmNode[]> {
    return (await this.quick.listNodes().catch((error: unknown) => {
      throw translate(error, 'list the nodes', this.where);
    })) as SwarmNode[];
  }

  private async nodes(): Promise<Map<string, SwarmNode>> {
    return new Map((await this.listNodes()).map((node) => [node.ID, node]));
  }

  /** Only a network this store made (its label says so) is ever removed. */
  private async removeJobNetwork(name: string): Promise<void> {
    try {
      const network = this.quick.getNetwork(name);
      const info = (await network.inspect()) as Docker.NetworkInspectInfo;
      if (info.Labels?.[STORE_LABEL] !== this.options.storeId) return;
      await network.remove();
    } catch (error) {
      // Gone already, or still held by the task being torn down: the sweep takes it later.
      // A network removed between the inspect and the remove is "not found" without a 404 from
      // the manager (seen in CI when a remove followed another).
      const gone = statusOf(error) === 404 || NETWORK_GONE.test(detailOf(error));
      if (!gone && statusOf(error) !== 403 && statusOf(error) !== 409) {
        throw translate(error, 'remove the job network', this.where);
      }
    }
  }

  /** Every 15 s at most, in the background: job networks whose service is gone. */
  private sweepNetworks(services: SwarmService[]): void {
    if (this.options.isolation !== 'job-network') return;
    if (Date.now() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = Date.now();
    const jobs = new Set(services.map((s) => s.Spec?.Labels?.[JOB_LABEL]));
    void this.quick
      .listNetworks({ filters: this.storeFilter })
      .then(async (networks) => {
        const orphans = networks.filter((n) => !jobs.has(n.Labels?.[JOB_LABEL])).map((n) => n.Name);
        for (const name of orphans.filter((n) => this.orphanSuspects.has(n))) {
          await this.removeJobNetwork(name);
        }
        this.orphanSuspects = new Set(orphans);
      })
      .catch(() => undefined); // tried again at the next sweep
  }
}
