import Docker from 'dockerode';
import {
  RuntimeError,
  type ContainerRuntime,
  type ContainerSpec,
  type ManagedContainer,
} from '../jobs/ports';
import type { ContainerLogs } from '../jobs/model';
import { demultiplex } from './docker-stream';

const JOB_LABEL = 'jobdeck.job';
const STORE_LABEL = 'jobdeck.store';

interface DockerError {
  statusCode?: number;
  code?: string;
  message?: string;
  json?: { message?: string } | null;
}

/** The local Docker Engine through its API (dockerode). */
export class DockerRuntime implements ContainerRuntime {
  private readonly docker: Docker;

  constructor(
    private readonly socketPath: string,
    private readonly storeId: string,
    private readonly extraLabels: Record<string, string> = {},
  ) {
    this.docker = new Docker({ socketPath });
  }

  async ping(): Promise<void> {
    await this.docker.ping().catch((error: unknown) => {
      throw this.translate(error, 'ping');
    });
  }

  async create(spec: ContainerSpec): Promise<string> {
    try {
      const container = await this.docker.createContainer({
        Image: spec.image,
        Cmd: spec.command.length > 0 ? spec.command : undefined,
        Env: spec.env,
        Labels: { ...this.extraLabels, [JOB_LABEL]: spec.jobId, [STORE_LABEL]: this.storeId },
        HostConfig: {
          // A tiny init as PID 1 forwards SIGTERM, so a cancel's grace period means something.
          Init: true,
          NetworkMode: spec.network,
          ...(spec.cpus !== null && { NanoCpus: Math.round(spec.cpus * 1e9) }),
          ...(spec.memoryBytes !== null && { Memory: spec.memoryBytes }),
        },
      });
      return container.id;
    } catch (error) {
      throw this.translate(error, 'create', spec.image);
    }
  }

  async start(containerId: string): Promise<void> {
    await this.docker
      .getContainer(containerId)
      .start()
      .catch((error: unknown) => {
        throw this.translate(error, 'start');
      });
  }

  async wait(containerId: string): Promise<number> {
    try {
      const result = (await this.docker.getContainer(containerId).wait()) as { StatusCode: number };
      return result.StatusCode;
    } catch (error) {
      throw this.translate(error, 'wait');
    }
  }

  async stop(containerId: string, graceSeconds: number): Promise<void> {
    try {
      await this.docker.getContainer(containerId).stop({ t: graceSeconds });
    } catch (error) {
      // 304: already stopped. Nothing to do, and not an error for whoever asked.
      if ((error as DockerError).statusCode === 304) return;
      throw this.translate(error, 'stop');
    }
  }

  async logs(containerId: string, maxBytes: number): Promise<ContainerLogs> {
    const raw = (await this.docker
      .getContainer(containerId)
      .logs({ stdout: true, stderr: true, follow: false })) as unknown as Buffer;
    const text = demultiplex(raw);
    if (text.length <= maxBytes) return { text: text.toString('utf8'), truncated: false };
    return { text: text.subarray(text.length - maxBytes).toString('utf8'), truncated: true };
  }

  async remove(containerId: string): Promise<void> {
    await this.docker
      .getContainer(containerId)
      .remove({ force: true })
      .catch((error: unknown) => {
        if ((error as DockerError).statusCode === 404) return;
        throw this.translate(error, 'remove');
      });
  }

  async listManaged(): Promise<ManagedContainer[]> {
    const containers = await this.docker.listContainers({
      all: true,
      filters: { label: [`${STORE_LABEL}=${this.storeId}`] },
    });
    return containers.map((c) => ({
      containerId: c.Id,
      jobId: c.Labels[JOB_LABEL] ?? '',
      state: c.State === 'running' ? 'running' : c.State === 'created' ? 'created' : 'exited',
    }));
  }

  /** Engine errors become sentences a user can act on, for the job's system_note. */
  private translate(error: unknown, action: string, image?: string): RuntimeError {
    const e = error as DockerError;
    const detail = e.json?.message ?? e.message ?? String(error);
    if (e.code === 'ECONNREFUSED' || e.code === 'ENOENT' || e.code === 'EACCES') {
      return new RuntimeError(
        `the container engine is unreachable at ${this.socketPath} (${e.code}); is dockerd running?`,
      );
    }
    if (action === 'create' && e.statusCode === 404) {
      return new RuntimeError(
        `image ${image} is not on the container engine; build or load it there (docker image ls lists what is present)`,
      );
    }
    if (e.statusCode === 404) {
      return new RuntimeError(`the container vanished (removed outside Jobdeck?) during ${action}`);
    }
    return new RuntimeError(`the container engine refused to ${action} the container: ${detail}`);
  }
}
