import type Docker from 'dockerode';
import {
  RuntimeError,
  type ContainerRuntime,
  type OutputWindow,
  type Workload,
  type WorkloadOutput,
  type WorkloadSpec,
} from '../../jobs/ports';
import { failpoint } from '../../jobs/failpoints';
import { engineLogs, readEngineOutput } from '../engine-output';
import { engineClients } from '../engine-api/connection';
import { statusOf } from '../engine-api/errors';
import {
  JOB_LABEL,
  attemptOf,
  STORE_LABEL,
  jobLabels,
  workloadName,
  type EngineLogDriver,
} from '../job-container';
import { translate } from './docker-errors';
import { hostConfigOf } from './host-config';

export interface DockerRuntimeOptions {
  socketPath: string;
  storeId: string;
  /** Extra labels on every container; Jobdeck's own win. */
  labels: Record<string, string>;
  /** A tiny init as PID 1 forwards SIGTERM, so a cancel's grace period means something. */
  init: boolean;
  /** How much output the engine keeps per container. */
  logDriver: EngineLogDriver;
}

function timeOf(value: string | undefined): number | null {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isFinite(ms) && ms > 0 ? ms : null; // Docker says 0001-01-01 for "never"
}

function workloadOf(info: Docker.ContainerInspectInfo): Workload {
  const state = info.State;
  const status =
    state.Running || state.Paused || state.Restarting
      ? 'running'
      : state.Status === 'created'
        ? 'created'
        : 'exited';
  return {
    id: info.Id,
    jobId: info.Config.Labels[JOB_LABEL] ?? '',
    status,
    exitCode: status === 'exited' ? state.ExitCode : null,
    startedAt: timeOf(state.StartedAt),
    finishedAt: status === 'exited' ? timeOf(state.FinishedAt) : null,
    node: null,
    message: state.Error || null,
    ...(state.OOMKilled && { cause: 'oom_killed' as const }),
    attempt: attemptOf(info.Config.Labels),
  };
}

/** A container this call has just made: nothing about it to ask the engine yet. */
const createdWorkload = (id: string, { jobId, attempt }: WorkloadSpec): Workload => ({
  id,
  jobId,
  attempt,
  status: 'created',
  exitCode: null,
  startedAt: null,
  finishedAt: null,
  node: null,
  message: null,
});

// A name held by a container being removed is free within a second or two.
const NAME_FREED_POLL_MS = 100;
const NAME_FREED_TRIES = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The local Docker Engine through its API (dockerode). */
export class DockerRuntime implements ContainerRuntime {
  /** Calls that answer at once: ping, create, start, inspect, list, remove. */
  private readonly quick: Docker;
  /** Calls that last as long as a container does: wait, stop, logs. */
  private readonly long: Docker;

  constructor(private readonly options: DockerRuntimeOptions) {
    ({ quick: this.quick, long: this.long } = engineClients({ socketPath: options.socketPath }));
  }

  async ping(): Promise<void> {
    await this.quick.ping().catch((error: unknown) => {
      throw this.translate(error, 'ping');
    });
  }

  async launch(spec: WorkloadSpec): Promise<Workload> {
    const name = workloadName(spec.jobId);
    let existing: Workload | null = null;
    for (let tries = 0; ; tries += 1) {
      try {
        const container = await this.quick.createContainer({ name, ...this.containerConfig(spec) });
        failpoint('after-create');
        existing = createdWorkload(container.id, spec);
        break;
      } catch (error) {
        // 409: the name is taken: this job's container was made before and the answer was lost.
        // It is this job's one container, never reason to make a second: how far did it get?
        if (statusOf(error) !== 409) throw this.translate(error, 'create', spec.image);
        existing = await this.inspect(spec.jobId);
        // Taken by a container being removed (the job's earlier attempt): the name frees soon.
        if (existing || tries >= NAME_FREED_TRIES) break;
        await sleep(NAME_FREED_POLL_MS);
      }
    }
    if (!existing)
      throw new RuntimeError('the container vanished (removed outside Jobdeck?) as it was created');
    if (existing.status !== 'created') return existing;
    try {
      await this.quick.getContainer(name).start();
      failpoint('after-start');
    } catch (error) {
      // 304: started by another launch of this job (an instance taken over while alive launched
      // it too): that is this launch's outcome, not a failure, and the container must stay.
      if (statusOf(error) === 304) return (await this.inspect(spec.jobId)) ?? existing;
      const failure = this.translate(error, 'start');
      if (failure instanceof RuntimeError) await this.remove(existing).catch(() => undefined);
      throw failure;
    }
    return (await this.inspect(spec.jobId)) ?? existing;
  }

  private containerConfig(spec: WorkloadSpec): Docker.ContainerCreateOptions {
    return {
      Image: spec.image,
      Cmd: spec.command.length > 0 ? spec.command : undefined,
      Env: spec.env,
      ...(spec.runOptions.user !== null && { User: spec.runOptions.user }),
      Labels: jobLabels(this.options.labels, spec, this.options.storeId),
      HostConfig: hostConfigOf(spec, this.options.init, this.options.logDriver),
    };
  }

  /**
   * The job's container by its name, or else by its labels: 0.1 created containers without a
   * name, and a job it left running must be adopted after an upgrade, not declared vanished.
   */
  async inspect(jobId: string): Promise<Workload | null> {
    const named = await this.inspectContainer(workloadName(jobId));
    if (named !== undefined) return named;
    let unnamed: Docker.ContainerInfo[];
    try {
      unnamed = await this.quick.listContainers({
        all: true,
        filters: { label: [`${JOB_LABEL}=${jobId}`, `${STORE_LABEL}=${this.options.storeId}`] },
      });
    } catch (error) {
      throw this.translate(error, 'list');
    }
    const [container] = unnamed;
    return container ? ((await this.inspectContainer(container.Id)) ?? null) : null;
  }

  /** undefined when no container has that name or id (null: one that is not this store's job). */
  private async inspectContainer(nameOrId: string): Promise<Workload | null | undefined> {
    try {
      const info = await this.quick.getContainer(nameOrId).inspect();
      if (info.Config.Labels[STORE_LABEL] !== this.options.storeId) return null;
      // Jobdeck removes a container only after recording its outcome: one being removed
      // otherwise was removed outside Jobdeck, and its exit code (137 from `rm -f`) says nothing.
      if (info.State.Status === 'removing') return null;
      return workloadOf(info);
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw this.translate(error, 'inspect');
    }
  }

  async list(): Promise<Workload[]> {
    let containers: Docker.ContainerInfo[];
    try {
      containers = await this.quick.listContainers({
        all: true,
        filters: { label: [`${STORE_LABEL}=${this.options.storeId}`] },
      });
    } catch (error) {
      throw this.translate(error, 'list');
    }
    const found = await Promise.all(containers.map((c) => this.inspectContainer(c.Id)));
    return found.filter((w): w is Workload => w !== null && w !== undefined);
  }

  /** A container changes status only by ending here: `created` ones are started by launch. */
  async waitForChange(workload: Workload): Promise<void> {
    try {
      await this.long.getContainer(workload.id).wait();
    } catch (error) {
      if (statusOf(error) === 404) return; // gone is ended, too
      throw this.translate(error, 'wait');
    }
  }

  async stop(workload: Workload, graceSeconds: number): Promise<void> {
    try {
      await this.long.getContainer(workload.id).stop({ t: graceSeconds });
    } catch (error) {
      // 304: already stopped; 404: already gone. Nothing to do, and no error for whoever asked.
      const status = statusOf(error);
      if (status === 304 || status === 404) return;
      throw this.translate(error, 'stop');
    }
  }

  async readOutput(workload: Workload, window: OutputWindow): Promise<WorkloadOutput> {
    try {
      return await readEngineOutput(
        engineLogs(this.quick, `/containers/${workload.id}/logs`),
        window,
      );
    } catch (error) {
      throw this.translate(error, 'read the logs of');
    }
  }

  async remove(workload: Workload): Promise<void> {
    try {
      await this.quick.getContainer(workload.id).remove({ force: true });
    } catch (error) {
      if (statusOf(error) === 404) return;
      // Someone removes it already (another instance, or this one a moment ago): it goes.
      if (statusOf(error) === 409 && /already in progress/.test(messageOf(error))) return;
      throw this.translate(error, 'remove');
    }
  }

  private translate(error: unknown, action: string, image?: string): Error {
    return translate(error, action, { socketPath: this.options.socketPath, image });
  }
}
