import { Agent, request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { budget, recordFigure } from './figures';

/**
 * A steady soak of submits from the two HTTP client stacks Node scripts use (fetch, i.e. undici,
 * and node:http's keep-alive Agent as its global one is made), each connection left idle for
 * random spells around the service's keep-alive limit (it says `Keep-Alive: timeout=5` and
 * closes an idle connection a second later): a reuse racing the server's close would show as a
 * network error here.
 */
const SOAK_MS = budget({ ci: 15_000, full: 300_000 });
const IDLE_LANES = 12; // per client stack
const BUSY_LANES = 2; // back to back, so the idle ones meet a loaded service

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const SUBMIT = JSON.stringify({ job_definition: 't::echo:1', job_queue: 't::paused' });

async function submitWithFetch(): Promise<number> {
  const response = await fetch(`${service.baseUrl}/v1/client/job`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
    body: SUBMIT,
  });
  await response.arrayBuffer();
  return response.status;
}

function submitWithAgent(agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request(
      `${service.baseUrl}/v1/client/job`,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
      },
      (response) => {
        response.resume().on('end', () => resolve(response.statusCode!));
      },
    );
    call.on('error', reject);
    call.end(SUBMIT);
  });
}

it('a steady soak over idle keep-alive connections: every submit answered, no network error', async () => {
  const deadline = Date.now() + SOAK_MS;
  const statuses = new Map<number, number>();
  const networkErrors: string[] = [];
  const lane = async (submit: () => Promise<number>, idleMs: () => number) => {
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, idleMs()));
      try {
        const status = await submit();
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        networkErrors.push(cause ?? (error as Error).message);
      }
    }
  };
  const idleAroundTheLimit = () => Math.random() * 7_000;
  // As node:http's global Agent is made. Node 20 applies the server's hint only when it is shorter
  // than the Agent's own timeout: an Agent made with no timeout ignores it, reuses a connection at
  // any idle, and can meet the close (docs/reliability.md).
  const agents = Array.from(
    { length: IDLE_LANES },
    () => new Agent({ keepAlive: true, timeout: 5_000 }),
  );
  await Promise.all([
    ...Array.from({ length: IDLE_LANES }, () => lane(submitWithFetch, idleAroundTheLimit)),
    ...agents.map((agent) => lane(() => submitWithAgent(agent), idleAroundTheLimit)),
    ...Array.from({ length: BUSY_LANES }, () => lane(submitWithFetch, () => 0)),
  ]);
  for (const agent of agents) agent.destroy();

  const answered = [...statuses.values()].reduce((sum, count) => sum + count, 0);
  recordFigure(
    'keep-alive soak: network errors',
    `${networkErrors.length} of ${answered + networkErrors.length}`,
  );
  expect(networkErrors).toEqual([]);
  expect([...statuses.keys()]).toEqual([202]);
  expect(answered).toBeGreaterThan(100);
});
