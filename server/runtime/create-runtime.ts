import type { EngineConfig } from '../config/schema';
import type { ContainerRuntime } from '../jobs/ports';
import { DockerRuntime } from './docker/docker-runtime';

export interface RuntimeContext {
  /** Put on every workload, so stores sharing one engine never touch each other's. */
  storeId: string;
  labels: Record<string, string>;
}

/** The one place that knows which engines exist. */
export function createRuntime(engine: EngineConfig, context: RuntimeContext): ContainerRuntime {
  switch (engine.type) {
    case 'docker':
      return new DockerRuntime({ socketPath: engine.socket, init: engine.init, ...context });
  }
}
