import type { Catalog } from './catalog';
import { Dispatcher } from './dispatcher';
import { EngineHealth } from './engine-health';
import { JobService } from './job-service';
import type { ContainerRuntime, JobStore, Logger, SecretBox } from './ports';
import { Reconciler } from './reconciler';
import { Runner, type ContainerDefaults } from './runner';
import { KeyedSerial } from './serial';
import { JobStateMachine } from './state-machine';

export interface JobSystemPorts {
  store: JobStore;
  runtime: ContainerRuntime;
  secrets: SecretBox;
  catalog: Catalog;
  logger: Logger;
}

export interface JobSystemOptions {
  logTailBytes: number;
  defaults: ContainerDefaults;
  reconcileIntervalMs: number;
}

export type JobSystem = ReturnType<typeof createJobSystem>;

/** The domain, wired: what the service runs, and what tests run against a fake engine. */
export function createJobSystem(ports: JobSystemPorts, options: JobSystemOptions) {
  const { store, runtime, secrets, catalog, logger } = ports;
  const machine = new JobStateMachine(store);
  // An engine stop can kill containers up to one interval before a pass notices it.
  const health = new EngineHealth(logger, options.reconcileIntervalMs + 1000);
  const runner = new Runner(runtime, machine, store, secrets, health, logger, {
    logTailBytes: options.logTailBytes,
    defaults: options.defaults,
  });
  const locks = new KeyedSerial();
  const dispatcher = new Dispatcher(store, machine, catalog, runner, health, locks, logger);
  const reconciler = new Reconciler(
    runtime,
    store,
    runner,
    health,
    locks,
    logger,
    options.reconcileIntervalMs,
  );
  const service = new JobService(store, machine, catalog, dispatcher, runner, secrets, health);
  return {
    service,
    machine,
    health,
    reconciler,
    /** Recovers what the last run left (the first reconcile pass), then starts dispatching. */
    async start(): Promise<void> {
      await reconciler.start();
      dispatcher.start();
    },
    /** Takes no new work; containers keep running for the next start to adopt. */
    async stop(): Promise<void> {
      dispatcher.stop();
      await reconciler.stop();
      runner.stop();
    },
  };
}
