import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { RUN_LABEL, runId } from '../../test/support/service';
import { BENCH_IMAGE } from '../jobdeck-client';
import { sleep } from '../stats';

const run = promisify(execFile);
const FINAL = new Set(['complete', 'failed', 'rejected', 'shutdown', 'orphaned']);

/**
 * `docker service create` of `true`, driven directly with the CLI: the same service Jobdeck
 * makes (its own internal overlay network, init, one replica, restart none, CPU and memory
 * limits and reservations), its task polled every 50 ms until it ended. Removal is not timed,
 * as Jobdeck's time ends when the outcome is recorded. Milliseconds.
 */
export async function serviceCreateCli(manager: string, cpus: string): Promise<number> {
  const docker = new Docker({ socketPath: manager.replace(/^unix:\/\//, '') });
  const name = `bench-${randomUUID().slice(0, 8)}`;
  const cli = (...args: string[]) => run('docker', ['-H', manager, ...args]);
  const label = `${RUN_LABEL}=${runId()}`;
  const begin = performance.now();
  await cli('network', 'create', '--driver', 'overlay', '--internal', '--label', label, name);
  await cli(
    'service',
    'create',
    '--detach',
    '--quiet',
    '--no-resolve-image',
    '--name',
    name,
    '--label',
    label,
    '--restart-condition',
    'none',
    '--init',
    '--network',
    name,
    '--endpoint-mode',
    'dnsrr',
    '--limit-cpu',
    cpus,
    '--reserve-cpu',
    cpus,
    '--limit-memory',
    '512m',
    '--reserve-memory',
    '512m',
    BENCH_IMAGE,
    'true',
  );
  for (;;) {
    const tasks = (await docker.listTasks({ filters: { service: [name] } })) as {
      Status: { State: string };
    }[];
    if (tasks.some((t) => FINAL.has(t.Status.State))) break;
    await sleep(50);
  }
  const ms = performance.now() - begin;
  await cli('service', 'rm', name);
  await cli('network', 'rm', name);
  return ms;
}
