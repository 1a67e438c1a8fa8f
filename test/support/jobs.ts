import type { JobList, JobRecord, JobState } from '../../contract';
import type { ApiResponse, TestService } from './service';

/**
 * A small client of the service for tests and benchmarks. Throws with the response text when
 * the service answers anything but what the call expects, so failures say what came back.
 */
function expectStatus(response: ApiResponse, status: number): ApiResponse {
  if (response.status !== status || !response.body.ok) {
    throw new Error(`expected ${status} with ok: true, got ${response.status}: ${response.text}`);
  }
  return response;
}

/** The test services' `t::sh:1` running `text` in sh -c. */
export const shScript = (text: string) => ({
  job_definition: 't::sh:1',
  container_cmd_parameter: { script: text },
});

export async function submit(
  service: TestService,
  payload: Record<string, unknown>,
): Promise<string> {
  const response = await service.request('POST', '/v1/client/job', {
    job_queue: 't::default',
    ...payload,
  });
  return (expectStatus(response, 202).body.data as { id: string }).id;
}

export async function detail(service: TestService, id: string): Promise<JobRecord> {
  return expectStatus(await service.request('GET', `/v1/client/job/${id}`), 200).body
    .data as JobRecord;
}

/** One page of List Jobs with this query string (`state=failed&limit=5`). */
export async function listPage(service: TestService, query: string): Promise<JobList> {
  return expectStatus(await service.request('GET', `/v1/client/jobs?${query}`), 200).body
    .data as JobList;
}

/** Polls Job Detail until the job is in one of `states`; fails with the last record seen. */
export async function waitForState(
  service: TestService,
  id: string,
  states: JobState | JobState[],
  // Long enough for a loaded machine's engine (CI runs suites side by side on two cores): a job
  // that is stuck fails all the same, later.
  timeoutMs = 60_000,
  pollMs = 100,
): Promise<JobRecord> {
  const wanted = [states].flat();
  const deadline = Date.now() + timeoutMs;
  let last: JobRecord | undefined;
  while (Date.now() < deadline) {
    last = await detail(service, id);
    if (wanted.includes(last.state)) return last;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(
    `job ${id} never reached ${wanted.join('/')}; last seen: ${JSON.stringify(last)}`,
  );
}

export async function logsOf(service: TestService, id: string): Promise<string> {
  const response = expectStatus(await service.request('GET', `/v1/client/job/${id}/logs`), 200);
  return (response.body.data as { text: string }).text;
}

export async function transitions(service: TestService, id: string) {
  const response = expectStatus(
    await service.request('GET', `/v1/client/job/${id}/transitions`),
    200,
  );
  return (response.body.data as { items: { to: JobState; at: string; note: string | null }[] })
    .items;
}

/** When the job first moved to `state`, in milliseconds since the epoch. */
export async function movedAt(service: TestService, id: string, state: JobState): Promise<number> {
  const move = (await transitions(service, id)).find((t) => t.to === state);
  if (!move) throw new Error(`job ${id} never moved to ${state}`);
  return Date.parse(move.at);
}

export async function statesOf(service: TestService, id: string): Promise<JobState[]> {
  return (await transitions(service, id)).map((t) => t.to);
}

/** When the service recorded each state (the last time, if a state came twice). */
export async function transitionTimes(
  service: TestService,
  id: string,
): Promise<Map<JobState, number>> {
  return new Map((await transitions(service, id)).map((t) => [t.to, Date.parse(t.at)]));
}

/**
 * How many jobs the project has that are newer than `since` (a job id, or undefined for all),
 * read through the list extension newest first, so it works on any store.
 */
export async function jobsNewerThan(service: TestService, since: string | undefined) {
  let count = 0;
  let cursor = '';
  for (;;) {
    const page = expectStatus(
      await service.request('GET', `/v1/client/jobs?limit=200${cursor}`),
      200,
    ).body.data as { items: { id: string }[]; next_cursor: string | null };
    for (const item of page.items) {
      if (item.id === since) return count;
      count += 1;
    }
    if (!page.next_cursor) return count;
    cursor = `&cursor=${page.next_cursor}`;
  }
}

/** The id of the project's newest job, to count from with jobsNewerThan. */
export async function newestJobId(service: TestService): Promise<string | undefined> {
  const page = expectStatus(await service.request('GET', '/v1/client/jobs?limit=1'), 200).body
    .data as { items: { id: string }[] };
  return page.items[0]?.id;
}
