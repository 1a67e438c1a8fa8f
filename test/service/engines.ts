import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { SCRIPT_VARIABLES as SIMULATE } from '../../server/runtime/simulated/script';
import { CONTAINER_JOBS, type EngineCasesRow, type JobBehaviour } from '../support/engine-cases';
import { ContainerStarts, containersOf } from '../support/engine-events';
import { startService, type TestService } from '../support/service';

/** The service for the cases of a describe: started before them, stopped after. */
function serviceForCases(settings: Record<string, unknown>, starts?: ContainerStarts) {
  const context = { service: undefined as unknown as TestService, starts };
  beforeAll(async () => {
    await starts?.started();
    context.service = await startService(settings);
  });
  afterAll(async () => {
    await context.service?.stop();
    starts?.stop();
  });
  return context;
}

/** The local Docker Engine: real containers, which outlive a service killed with SIGKILL. */
export const DOCKER: EngineCasesRow = {
  name: 'the local Docker Engine',
  serviceForCases: () => serviceForCases({}, new ContainerStarts()),
  job: (behaviour) => CONTAINER_JOBS[behaviour],
  leftOf: (jobId) => containersOf(jobId).join(' '),
  missingImageNote: /image jobdeck\/no-such-image:missing is not on the container engine/,
  appliesLimits: true,
  recovery: {
    removeWorkload(jobId) {
      execFileSync('docker', ['rm', '-f', ...containersOf(jobId)]);
    },
    async exited(jobId) {
      execFileSync('docker', ['wait', ...containersOf(jobId)]);
    },
  },
};

const simulated = (variables: Record<string, string>) =>
  Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, { value }]));

/** Each case's job as the simulated engine's variables script it (script.ts). */
const SIMULATED_JOBS: Record<JobBehaviour, Record<string, unknown>> = {
  greets: {
    job_definition: 't::echo:1',
    container_env: simulated({ [SIMULATE.stdout]: 'hi there', [SIMULATE.exitCode]: '0' }),
  },
  'fails-with-3': {
    job_definition: 't::echo:1',
    // An empty stdout line instead of the engine's summary of the run.
    container_env: simulated({
      [SIMULATE.stdout]: '',
      [SIMULATE.stderr]: 'oops',
      [SIMULATE.exitCode]: '3',
    }),
  },
  runs: {
    job_definition: 't::sleep:1',
    container_env: simulated({ [SIMULATE.runMs]: '60000' }),
  },
  'ignores-term': {
    job_definition: 't::stubborn:1',
    container_env: simulated({ [SIMULATE.runMs]: '60000', [SIMULATE.ignoresTerm]: '1' }),
  },
  overruns: {
    job_definition: 't::short:1',
    container_env: simulated({ [SIMULATE.runMs]: '60000' }),
  },
  'waits-in-paused-queue': CONTAINER_JOBS['waits-in-paused-queue'],
};

/** A small simulated engine: two nodes of two slots, quick starts and runs. */
export const SIMULATED_SETTINGS = {
  reconcile_interval_seconds: 1,
  engine: {
    type: 'simulated',
    nodes: 2,
    slots_per_node: 2,
    start_ms: { min: 10, max: 50 },
    run_ms: { min: 100, max: 300 },
  },
};

/**
 * The simulated engine: the same dispatcher, runner and reconciler, nothing started. Its cluster
 * lives in the service's process, so a restart loses every workload: no recovery cases.
 */
export const SIMULATED: EngineCasesRow = {
  name: 'the simulated engine',
  serviceForCases: () => serviceForCases(SIMULATED_SETTINGS),
  job: (behaviour) => SIMULATED_JOBS[behaviour],
  nodes: ['sim-node-1', 'sim-node-2'],
  appliesLimits: false,
};
