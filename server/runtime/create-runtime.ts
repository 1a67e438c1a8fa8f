import { DEFAULT_DOCKER_SOCKET, type EngineConfig, type JobdeckConfig } from '../config/schema';
import { StartupError } from '../errors/startup-error';
import type { ContainerRuntime } from '../jobs/ports';
import type { EngineEndpoint } from './engine-api/connection';
import { engineLogDriver } from './job-container';

export interface RuntimeContext {
  /** Put on every workload, so stores sharing one engine never touch each other's. */
  storeId: string;
  labels: Record<string, string>;
  /** Output kept of each ended job: the engine must hold at least that much. */
  keptOutputBytesPerJob: number;
  /** The projects: a queue may name a Slurm partition. */
  projects: JobdeckConfig['projects'];
}

/** The queues that name a Slurm partition, each with the field that does. */
function queuePartitionsOf(projects: JobdeckConfig['projects']) {
  return Object.entries(projects).flatMap(([code, project]) =>
    Object.entries(project.queues).flatMap(([name, queue]) =>
      queue.partition === undefined
        ? []
        : [
            {
              queue: `${code}::${name}`,
              partition: queue.partition,
              field: `projects.${code}.queues.${name}.partition`,
            },
          ],
    ),
  );
}

function endpointOf(engine: { socket?: string; host?: string }): EngineEndpoint {
  if (!engine.host) return { socketPath: engine.socket ?? DEFAULT_DOCKER_SOCKET };
  const [host = '', port = ''] = engine.host.split(':');
  return { host, port: Number(port) };
}

/** The one place that knows which engines exist; only the configured one's modules are loaded. */
export async function createRuntime(
  engine: EngineConfig,
  context: RuntimeContext,
): Promise<ContainerRuntime> {
  const { storeId, labels } = context;
  const logDriver = engineLogDriver(context.keptOutputBytesPerJob);
  switch (engine.type) {
    case 'docker': {
      const { DockerRuntime } = await import('./docker/docker-runtime');
      return new DockerRuntime({
        socketPath: engine.socket,
        init: engine.init,
        storeId,
        labels,
        logDriver,
        capacity: {
          cpus: engine.capacity.cpus,
          memoryBytes: engine.capacity.memory,
          reserveCpus: engine.capacity.reserve_cpus,
          reserveMemoryBytes: engine.capacity.reserve_memory ?? 0,
        },
      });
    }
    case 'swarm': {
      const { SwarmRuntime } = await import('./swarm/swarm-runtime');
      return new SwarmRuntime({
        endpoint: endpointOf(engine),
        constraints: engine.constraints,
        isolation: engine.isolation,
        reserve: {
          cpus: engine.capacity.reserve_cpus,
          memoryBytes: engine.capacity.reserve_memory ?? 0,
        },
        init: engine.init,
        storeId,
        labels,
        logDriver,
      });
    }
    case 'slurm': {
      const { SlurmRuntime } = await import('./slurm/slurm-runtime');
      const runtime = new SlurmRuntime({
        conf: engine.conf,
        workDir: engine.work_dir,
        partition: engine.partition,
        queuePartitions: queuePartitionsOf(context.projects),
        init: engine.init,
        storeId,
        labels,
        logDriver,
      });
      const unknown = await runtime.unknownPartitions();
      if (unknown.length > 0) throw new StartupError(unknown.join('; '));
      return runtime;
    }
    case 'simulated': {
      const { SimulatedRuntime } = await import('./simulated/simulated-runtime');
      return new SimulatedRuntime({
        nodes: engine.nodes,
        hosts: engine.hosts?.flatMap((kind) =>
          Array.from({ length: kind.count }, (_, i) => ({
            id: `${kind.name}-${i + 1}`,
            name: `${kind.name}-${i + 1}`,
            cpus: kind.cpus,
            memoryBytes: kind.memory,
            gpus: kind.gpus,
            state: 'ready' as const,
          })),
        ),
        slotsPerNode: engine.slots_per_node,
        startMs: engine.start_ms,
        runMs: engine.run_ms,
        exitCodes: Object.entries(engine.exit_codes).map(([code, weight]) => [
          Number(code),
          weight,
        ]),
        faults: {
          nodeLossEverySeconds: engine.faults.node_loss_every_seconds,
          outageEverySeconds: engine.faults.outage_every_seconds,
          outageSeconds: engine.faults.outage_seconds,
        },
      });
    }
  }
}
