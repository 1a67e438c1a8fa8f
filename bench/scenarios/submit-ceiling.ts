import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { TestService } from '../../test/support/service';
import { cpuMs } from '../jobdeck-client';
import { round } from '../stats';

const BODY = JSON.stringify({ job_definition: 'b::true:1', job_queue: 'b::paused' });

export interface Load {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** CPU time the server process spent per answered request: what load on the machine bends least. */
  cpuMicrosPerRequest: number;
}

/** autocannon against one URL at `connections`, with the server's CPU time per request. */
export async function loadOf(
  pid: number,
  options: { url: string; method?: 'GET' | 'POST'; body?: string; key?: string },
  connections: number,
  seconds: number,
): Promise<Load> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    body: options.body,
    connections,
    duration: seconds,
    headers: {
      'content-type': 'application/json',
      ...(options.key && { authorization: `Bearer ${options.key}` }),
    },
  });
  return {
    requestsPerSecond: round(result.requests.average, 0),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuMicrosPerRequest: round(
      ((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total),
      0,
    ),
  };
}

/** Job Submit at 16 connections on one of the bench's yardstick servers (a file beside run.ts). */
async function yardstickLoad(seconds: number, file: string, ...args: string[]): Promise<Load> {
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '..', file), ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const [line] = (await once(server.stdout!, 'data')) as [Buffer];
    const url = `${line.toString().trim()}/v1/client/job`;
    return await loadOf(server.pid!, { url, method: 'POST', body: BODY }, 16, seconds);
  } finally {
    server.kill('SIGTERM');
  }
}

/**
 * Job Submit at 16 connections beside its yardsticks, one after the other, each on a machine
 * otherwise as busy as it is:
 * - bench/bare-server.ts (Fastify + the same zod schema, no store): how much of the HTTP stack's
 *   ceiling Jobdeck keeps;
 * - bench/floor-server.ts (the same rows in the same SQLite tables, group-committed, nothing of
 *   Jobdeck around them), with SQLite's automatic checkpoint and without: what a durable submit
 *   costs this machine, and how much of the tail the checkpoint is.
 */
export async function submitCeiling(service: TestService, seconds: number) {
  const jobdeck = await loadOf(
    service.pid(),
    { url: `${service.baseUrl}/v1/client/job`, method: 'POST', body: BODY, key: service.key },
    16,
    seconds,
  );
  const bare = await yardstickLoad(seconds, 'bare-server.ts');
  return {
    jobdeck,
    bare,
    floor: await yardstickLoad(seconds, 'floor-server.ts'),
    floorWithoutAutoCheckpoint: await yardstickLoad(
      seconds,
      'floor-server.ts',
      '--no-auto-checkpoint',
    ),
    ratio: round(jobdeck.requestsPerSecond / bare.requestsPerSecond, 2),
  };
}
