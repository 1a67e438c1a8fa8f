import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { hostConfigOf } from '../../server/runtime/docker/host-config';
import { DEFAULT_KEPT_OUTPUT_BYTES } from '../../server/config/schema';
import { JOB_CAPABILITIES, engineLogDriver } from '../../server/runtime/job-container';
import { BENCH_IMAGE } from '../jobdeck-client';

const run = promisify(execFile);
const docker = new Docker({ socketPath: '/var/run/docker.sock' });

/** The engine's log cap Jobdeck sets by default. */
const LOG_DRIVER = engineLogDriver(DEFAULT_KEPT_OUTPUT_BYTES);

/**
 * The same container Jobdeck creates with its default job limits (1 CPU, 512 MiB, 512
 * processes, network none, init), run straight on the engine: the comparison is of Jobdeck's
 * own work, not of the limits' cost to the engine.
 */
const HOST_CONFIG = hostConfigOf(
  {
    network: 'none',
    cpus: 1,
    memoryBytes: 512 * 1024 ** 2,
    pidsLimit: 512,
    runOptions: { readOnlyRootfs: false },
  },
  true,
  LOG_DRIVER,
);

/** The same, as `docker run` flags. */
export const RUN_FLAGS = [
  '--init',
  '--network=none',
  '--cpus=1',
  `--memory=${HOST_CONFIG.Memory}`,
  `--pids-limit=${HOST_CONFIG.PidsLimit}`,
  '--cap-drop=ALL',
  ...JOB_CAPABILITIES.map((capability) => `--cap-add=${capability}`),
  '--security-opt=no-new-privileges',
  `--log-driver=${LOG_DRIVER.Type}`,
  ...Object.entries(LOG_DRIVER.Config).map(([key, value]) => `--log-opt=${key}=${value}`),
];

/** `docker run --rm IMAGE true`: wall time of the CLI, removal included. */
export async function dockerRunCli(): Promise<number> {
  const start = performance.now();
  await run('docker', ['run', '--rm', ...RUN_FLAGS, BENCH_IMAGE, 'true']);
  return performance.now() - start;
}

/** Create + start + wait through the Engine API; `startedMs` is when start returned. */
export async function engineApiRun(): Promise<{ startedMs: number; exitedMs: number }> {
  const begin = performance.now();
  const container = await docker.createContainer({
    Image: BENCH_IMAGE,
    Cmd: ['true'],
    HostConfig: HOST_CONFIG,
  });
  await container.start();
  const startedMs = performance.now() - begin;
  await container.wait();
  const exitedMs = performance.now() - begin;
  await container.remove({ force: true });
  return { startedMs, exitedMs };
}
