import { readFileSync } from 'node:fs';
import type { JobState } from '../contract';
import type { TestService } from '../test/support/service';
import { sleep } from './stats';

export const BENCH_IMAGE = 'jobdeck/busybox:local';

/** The bench service's projects: one queue that never dispatches, and queues sized per figure. */
export function benchProjects() {
  const image = BENCH_IMAGE;
  return {
    b: {
      queues: {
        paused: { paused: true, max_running: 64 },
        fast: { max_running: 16, priority: 10 },
        eight: { max_running: 8 },
      },
      definitions: {
        true: { '1': { image, command: ['true'] } },
        sleep: { '1': { image, command: ['sleep', '120'], stop_grace_seconds: 1 } },
      },
    },
  };
}

export const BENCH_SETTINGS = { log_level: 'warn', max_running: 64, projects: benchProjects() };

export async function submit(
  service: TestService,
  payload: Record<string, unknown>,
): Promise<string> {
  const response = await service.request('POST', '/v1/client/job', payload);
  if (response.status !== 202) throw new Error(`submit failed: ${response.text}`);
  return (response.body.data as { id: string }).id;
}

export async function stateOf(service: TestService, id: string): Promise<JobState> {
  return ((await service.request('GET', `/v1/client/job/${id}`)).body.data as { state: JobState })
    .state;
}

export async function waitFor(
  service: TestService,
  id: string,
  states: JobState[],
  pollMs = 20,
): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (states.includes(await stateOf(service, id))) return;
    await sleep(pollMs);
  }
  throw new Error(`job ${id} never reached ${states.join('/')}`);
}

/** When the service recorded each state of the job (its clock is this machine's clock). */
export async function transitionTimes(
  service: TestService,
  id: string,
): Promise<Map<JobState, number>> {
  const response = await service.request('GET', `/v1/client/job/${id}/transitions`);
  const items = (response.body.data as { items: { to: JobState; at: string }[] }).items;
  return new Map(items.map((t) => [t.to, Date.parse(t.at)]));
}

export function rssMiB(pid: number): number {
  // VmRSS from procfs: the resident set the kernel accounts to the process.
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kib / 1024) * 10) / 10;
}
