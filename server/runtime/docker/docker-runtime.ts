import type Docker from 'dockerode';
import {
  EngineUnavailableError,
  RuntimeError,
  type ContainerRuntime,
  type EngineHosts,
  type ExecRequest,
  type ExecSession,
  type OutputWindow,
  type Workload,
  type WorkloadOutput,
  type WorkloadSpec,
  type WorkloadUsage,
} from '../../jobs/ports';
import { failpoint } from '../../jobs/failpoints';
import { engineLogs, readEngineOutput } from '../engine-output';
import { engineClients } from '../engine-api/connection';
import { startEngineExec } from '../engine-api/exec-session';
import { statusOf } from '../engine-api/errors';
import { usageOfStats, type EngineStats } from '../engine-api/usage';
import {
  JOB_LABEL,
  STORE_LABEL,
  jobLabels,
  workloadName,
  type EngineLogDriver,
} from '../job-container';
import { translate } from './docker-errors';
import { createdWorkload, workloadOf } from './docker-workload';
import { hostConfigOf } from './host-config';
import { LateOutOfMemory } from './late-oom';

export interface DockerRuntimeOptions {
  socketPath: string;
  storeId: string;
  /** Extra labels on every container; Jobdeck's own win. */
  labels: Record<string, string>;
  /** A tiny init as PID 1 forwards SIGTERM, so a cancel's grace period means something. */
  init: boolean;
  /** How much output the engine keeps per container. */
  logDriver: EngineLogDriver;
  /** What the machine offers Jobdeck's jobs (engine.capacity); default: all of it. */
  capacity?: DockerCapacity;
  /** STARTED_BY_MAKER_WITHIN_MS unless a test says otherwise. */
  startedByMakerWithinMs?: number;
}

/** Set amounts, else the machine's less what is kept for everything else. */
export interface DockerCapacity {
  cpus?: number;
  memoryBytes?: number;
  reserveCpus: number;
  reserveMemoryBytes: number;
}

const WHOLE_MACHINE: DockerCapacity = { reserveCpus: 0, reserveMemoryBytes: 0 };

// A name held by a container being removed is free within a second or two.
const NAME_FREED_POLL_MS = 100;
const NAME_FREED_TRIES = 100;
/**
 * How long a container made by another launch is left for that launch to start: its create and
 * start are two calls a few milliseconds apart, seconds on a machine under load; a maker still
 * silent past this has died or is frozen.
 */
export const STARTED_BY_MAKER_WITHIN_MS = 10_000;
const MAKER_POLL_MS = 200;
// A launch that keeps finding containers of other launches is not one to go on with for ever.
const REPLACE_ROUNDS = 5;
// A start asked this often (each within the quick calls' timeout) before the engine is taken as away.
const START_TRIES = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The local Docker Engine through its API (dockerode). */
export class DockerRuntime implements ContainerRuntime {
  /** Calls that answer at once: ping, create, start, inspect, list, remove. */
  private readonly quick: Docker;
  /** Calls that last as long as a container does: wait, stop, logs. */
  private readonly long: Docker;

  private readonly startedByMakerWithinMs: number;
  private readonly lateOutOfMemory: LateOutOfMemory;

  constructor(private readonly options: DockerRuntimeOptions) {
    this.startedByMakerWithinMs = options.startedByMakerWithinMs ?? STARTED_BY_MAKER_WITHIN_MS;
    ({ quick: this.quick, long: this.long } = engineClients({ socketPath: options.socketPath }));
    this.lateOutOfMemory = new LateOutOfMemory(this.quick);
  }

  async ping(): Promise<void> {
    await this.quick.ping().catch((error: unknown) => {
      throw this.translate(error, 'ping');
    });
  }

  /** The one machine, from the engine's info: its CPUs and memory, less the reserve. */
  async hosts(): Promise<EngineHosts> {
    const info = (await this.quick.info().catch((error: unknown) => {
      throw this.translate(error, 'read its info');
    })) as { ID?: string; Name?: string; NCPU?: number; MemTotal?: number };
    const { cpus, memoryBytes, reserveCpus, reserveMemoryBytes } =
      this.options.capacity ?? WHOLE_MACHINE;
    const name = info.Name || 'local';
    return {
      fixed: true,
      hosts: [
        {
          id: info.ID || name,
          name,
          cpus: cpus ?? Math.max(0, (info.NCPU ?? 0) - reserveCpus),
          memoryBytes: memoryBytes ?? Math.max(0, (info.MemTotal ?? 0) - reserveMemoryBytes),
          gpus: 0,
          state: 'ready',
        },
      ],
    };
  }

  /**
   * Starts the job's one container. Only the launch that made a container starts it, and by its
   * id: a launch that finds the container made by another (an instance taken for lost while it
   * launched, alive or frozen between its create and its start) waits for that one to start it,
   * and, past `startedByMakerWithinMs`, removes it while it is still unstarted and makes its own.
   * So the maker, should it wake, starts nothing (its container is gone), and never the container
   * its successor ran to its end: a job is not run twice.
   */
  async launch(spec: WorkloadSpec): Promise<Workload> {
    for (let round = 0; round < REPLACE_ROUNDS; round += 1) {
      const { workload, madeHere } = await this.createOrFind(spec);
      if (workload.status !== 'created') return workload;
      if (madeHere) return this.startMade(workload, spec);
      const started = await this.awaitStartByMaker(workload);
      if (started) return started;
      await this.removeUnstarted(workload);
    }
    throw new RuntimeError(
      `the job's container was replaced ${REPLACE_ROUNDS} times as it was launched: another launch keeps making it`,
    );
  }

  /** This job's container: made now, or the one an earlier launch made (found by its name). */
  private async createOrFind(
    spec: WorkloadSpec,
  ): Promise<{ workload: Workload; madeHere: boolean }> {
    const name = workloadName(spec.jobId);
    for (let tries = 0; ; tries += 1) {
      try {
        const container = await this.quick.createContainer({ name, ...this.containerConfig(spec) });
        failpoint('after-create');
        return { workload: createdWorkload(container.id, spec), madeHere: true };
      } catch (error) {
        // 409: the name is taken: this job's container was made before and the answer was lost.
        // It is this job's one container, never reason to make a second: how far did it get?
        if (statusOf(error) !== 409) throw this.translate(error, 'create', spec.image);
        const existing = await this.inspect(spec.jobId);
        if (existing) return { workload: existing, madeHere: false };
        // Taken by a container being removed (the job's earlier attempt): the name frees soon.
        if (tries >= NAME_FREED_TRIES) {
          throw new RuntimeError(
            'the container vanished (removed outside Jobdeck?) as it was created',
          );
        }
        await sleep(NAME_FREED_POLL_MS);
      }
    }
  }

  /**
   * Starts the container this launch made. A start that gets no answer in time is, far more often
   * than an engine gone, an engine slow to set up the container (a loaded machine): the container
   * is looked at, and a started one is the launch's outcome; one still unstarted is asked again
   * (a start of a started container is a 304). Only an engine that answers nothing fails it.
   */
  private async startMade(made: Workload, spec: WorkloadSpec): Promise<Workload> {
    for (let tries = 1; ; tries += 1) {
      try {
        await this.quick.getContainer(made.id).start();
        failpoint('after-start');
        return (await this.inspect(spec.jobId)) ?? made;
      } catch (error) {
        const status = statusOf(error);
        // 304: started already; 404: replaced by a later launch of the job (this instance was
        // taken for lost meanwhile). Either way the job's container is the launch's outcome.
        if (status === 304 || status === 404) {
          const current = await this.inspect(spec.jobId);
          if (current) return current;
        }
        const failure = this.translate(error, 'start');
        if (failure instanceof EngineUnavailableError && tries < START_TRIES) {
          const now = await this.inspect(spec.jobId).catch(() => undefined);
          if (now && now.id === made.id && now.status !== 'created') return now;
          if (now?.id === made.id) continue;
        }
        if (failure instanceof RuntimeError) await this.remove(made).catch(() => undefined);
        throw failure;
      }
    }
  }

  /**
   * The container once its maker started it (running or ended), or null once it is older than
   * the bound unstarted, or gone: then it is this launch's to replace.
   */
  private async awaitStartByMaker(made: Workload): Promise<Workload | null> {
    let createdAt: number;
    try {
      createdAt = Date.parse((await this.quick.getContainer(made.id).inspect()).Created);
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw this.translate(error, 'inspect');
    }
    for (;;) {
      const now = await this.inspectContainer(made.id);
      if (!now) return null;
      if (now.status !== 'created') return now;
      const waited = Date.now() - createdAt;
      if (waited >= this.startedByMakerWithinMs) return null;
      await sleep(Math.min(MAKER_POLL_MS, this.startedByMakerWithinMs - waited));
    }
  }

  /** Removes the container only if it never started: Docker refuses (409) a running one. */
  private async removeUnstarted(made: Workload): Promise<void> {
    try {
      await this.quick.getContainer(made.id).remove({ force: false });
    } catch (error) {
      const status = statusOf(error);
      // 404: gone already; 409: its maker started it after all, or it is being removed: the next
      // round finds out which.
      if (status !== 404 && status !== 409) throw this.translate(error, 'remove');
    }
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
      const workload = workloadOf(info);
      return (await this.lateOutOfMemory.killed(info))
        ? { ...workload, cause: 'oom_killed' }
        : workload;
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
    this.lateOutOfMemory.stopping(workload.id);
    try {
      await this.long.getContainer(workload.id).stop({ t: graceSeconds });
    } catch (error) {
      // 304: already stopped; 404: already gone. Nothing to do, and no error for whoever asked.
      const status = statusOf(error);
      // Ended before the stop: its SIGKILL, if any, was not the stop's.
      if (status === 304) this.lateOutOfMemory.unstopped(workload.id);
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
    this.lateOutOfMemory.forget(workload.id);
    try {
      await this.quick.getContainer(workload.id).remove({ force: true });
    } catch (error) {
      if (statusOf(error) === 404) return;
      // Someone removes it already (another instance, or this one a moment ago): it goes.
      if (statusOf(error) === 409 && /already in progress/.test(messageOf(error))) return;
      throw this.translate(error, 'remove');
    }
  }

  readonly reportsOutOfMemory = true;

  /** One stats read that does not wait for a second sample (one-shot: API 1.41). */
  async usage(workload: Workload): Promise<WorkloadUsage | null> {
    try {
      const stats = (await this.quick
        .getContainer(workload.id)
        .stats({ stream: false, 'one-shot': true })) as EngineStats;
      return usageOfStats(stats);
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw this.translate(error, 'read the usage of');
    }
  }

  /** On the long client: the session lasts as long as the command does. */
  async exec(workload: Workload, request: ExecRequest): Promise<ExecSession> {
    try {
      return await startEngineExec(this.long.getContainer(workload.id), request);
    } catch (error) {
      throw this.translate(error, 'run a command in');
    }
  }

  private translate(error: unknown, action: string, image?: string): Error {
    return translate(error, action, { socketPath: this.options.socketPath, image });
  }
}
