import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { BENCH_IMAGE } from '../jobdeck-client';

const run = promisify(execFile);
const docker = new Docker({ socketPath: '/var/run/docker.sock' });

/** The same container Jobdeck creates (init, network none), run straight on the engine. */
const HOST_CONFIG = { Init: true, NetworkMode: 'none' };

/** `docker run --rm IMAGE true`: wall time of the CLI, removal included. */
export async function dockerRunCli(): Promise<number> {
  const start = performance.now();
  await run('docker', ['run', '--rm', '--init', '--network', 'none', BENCH_IMAGE, 'true']);
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
