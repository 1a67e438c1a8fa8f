import { Agent } from 'node:http';
import { inspect } from 'node:util';
import Docker from 'dockerode';

/** Where an Engine API listens: a unix socket, or host:port over plain TCP. */
export type EngineEndpoint = { socketPath: string } | { host: string; port: number };

export const endpointText = (endpoint: EngineEndpoint) =>
  'socketPath' in endpoint
    ? `unix://${endpoint.socketPath}`
    : `tcp://${endpoint.host}:${endpoint.port}`;

// A quick call that has not answered in this long is an engine that is not answering.
const QUICK_CALL_TIMEOUT_MS = 15_000;

export interface EngineClients {
  /** Calls that answer at once (ping, create, inspect, list, remove), with a timeout. */
  quick: Docker;
  /** Calls that last as long as a workload does (wait, stop, logs): no timeout. */
  long: Docker;
}

/**
 * docker-modem formats every request's options for a debug line, printed or not, with
 * `util.inspect(options, { showHidden: true, depth: null })`. The agent in them reaches its live
 * socket and everything that socket holds: milliseconds of CPU per Engine API call, on the thread
 * that answers the API (figures in docs/benchmarks.md). This agent prints as its name.
 */
class EngineAgent extends Agent {
  [inspect.custom]() {
    return 'EngineAgent';
  }
}

export function engineClients(endpoint: EngineEndpoint): EngineClients {
  // No keep-alive: a stopping engine closes its listener first, and only a new connection
  // notices. A reused one would still be served while the engine kills every container.
  // (docker-modem takes an `agent`; @types/dockerode does not list it.)
  const connection: Docker.DockerOptions & { agent: Agent } = {
    ...('socketPath' in endpoint
      ? { socketPath: endpoint.socketPath }
      : { host: endpoint.host, port: endpoint.port, protocol: 'http' as const }),
    agent: new EngineAgent({ keepAlive: false }),
  };
  return {
    quick: new Docker({ ...connection, timeout: QUICK_CALL_TIMEOUT_MS }),
    long: new Docker(connection),
  };
}
