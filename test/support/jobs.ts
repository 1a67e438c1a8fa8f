import { expect } from 'vitest';
import type { JobRecord, JobState } from '../../contract';
import type { TestService } from './service';

export async function submit(
  service: TestService,
  payload: Record<string, unknown>,
): Promise<string> {
  const response = await service.request('POST', '/v1/client/job', {
    job_queue: 't::default',
    ...payload,
  });
  expect(response.status, response.text).toBe(202);
  expect(response.body.ok).toBe(true);
  return (response.body.data as { id: string }).id;
}

export async function detail(service: TestService, id: string): Promise<JobRecord> {
  const response = await service.request('GET', `/v1/client/job/${id}`);
  expect(response.status, response.text).toBe(200);
  return response.body.data as JobRecord;
}

/** Polls Job Detail until the job is in one of `states`; fails with the last record seen. */
export async function waitForState(
  service: TestService,
  id: string,
  states: JobState | JobState[],
  timeoutMs = 30_000,
): Promise<JobRecord> {
  const wanted = [states].flat();
  const deadline = Date.now() + timeoutMs;
  let last: JobRecord | undefined;
  while (Date.now() < deadline) {
    last = await detail(service, id);
    if (wanted.includes(last.state)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `job ${id} never reached ${wanted.join('/')}; last seen: ${JSON.stringify(last)}`,
  );
}

export async function logsOf(service: TestService, id: string): Promise<string> {
  const response = await service.request('GET', `/v1/client/job/${id}/logs`);
  expect(response.status).toBe(200);
  return (response.body.data as { text: string }).text;
}

export async function statesOf(service: TestService, id: string): Promise<JobState[]> {
  const response = await service.request('GET', `/v1/client/job/${id}/transitions`);
  return (response.body.data as { items: { to: JobState }[] }).items.map((t) => t.to);
}
