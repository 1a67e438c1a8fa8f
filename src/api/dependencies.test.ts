import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord } from '../../contract';
import { listItem } from '../test/list-item';
import { stubService } from '../test/service';
import { detectCapabilities } from './detect-capabilities';
import {
  awaitsChange,
  jobDependenciesQuery,
  type DependenciesAnswer,
  type DependencyEdge,
} from './dependencies';
import { jobKeys } from './keys';

const A = '01a20274-e614-709d-917d-d51b4dc7e757';
const B = '01a20274-e614-709d-917d-d51b4dc7e758';
const C = '01a20274-e614-709d-917d-d51b4dc7e759';

const edge = (jobId: string, fields: Partial<DependencyEdge> = {}): DependencyEdge => ({
  job_id: jobId,
  name: jobId.slice(-3),
  type: 'afterok',
  state: 'running',
  status: 'waiting',
  ...fields,
});

/** B's answer: it waits for A, and C waits for it. */
const answerOfB = (
  a: Partial<DependencyEdge> = {},
  c: Partial<DependencyEdge> = { state: 'pending' },
): DependenciesAnswer => ({
  depends_on: [edge(A, a)],
  dependents: [edge(C, c)],
  dependents_total: 1,
});

const pendingB: JobRecord = listItem(B, {
  state: 'pending',
  system_note: 'waiting for job a (A) to complete (it is running)',
  updated_at: '2026-11-26T10:41:15.000Z',
});

afterEach(() => vi.unstubAllGlobals());

describe('awaitsChange', () => {
  it('holds while a job on either side has not ended', () => {
    expect(awaitsChange(answerOfB())).toBe(true);
    expect(awaitsChange(answerOfB({ state: 'completed', status: 'met' }))).toBe(true);
    expect(
      awaitsChange(answerOfB({ state: 'completed', status: 'met' }, { state: 'completed' })),
    ).toBe(false);
  });
});

describe('jobDependenciesQuery', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('is polled while a job in it has not ended, and no more once they all ended', async () => {
    const fetch = stubService([[/\/dependencies$/, answerOfB()]]);
    const client = new QueryClient();
    const observer = new QueryObserver(client, jobDependenciesQuery(pendingB, 20));
    stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(answerOfB()));

    // A completed and C ran: the page's job (B) has not changed, the answer has.
    const ended = answerOfB({ state: 'completed', status: 'met' }, { state: 'completed' });
    stubService([[/\/dependencies$/, ended]]);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(ended));
    const calls = fetch.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fetch.mock.calls.length).toBe(calls);
  });

  it("is read again when the job's own record changes, the last answer shown meanwhile", async () => {
    const settled = answerOfB({ state: 'failed', status: 'unmeetable' }, { state: 'cancelled' });
    const fetch = stubService([[/\/dependencies$/, settled]]);
    const client = new QueryClient();
    const observer = new QueryObserver(client, jobDependenciesQuery(pendingB, 20));
    stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(settled));

    const cancelled = { ...pendingB, state: 'cancelled', updated_at: '2026-11-26T10:41:21.000Z' };
    const again = { ...settled, dependents_total: 2 };
    stubService([[/\/dependencies$/, again]]);
    observer.setOptions(jobDependenciesQuery(cancelled as JobRecord, 20));
    expect(observer.getCurrentResult().data).toEqual(settled);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(again));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(client.getQueryData(jobKeys.dependencies(B, cancelled.updated_at))).toEqual(again);
  });
});

describe('the dependencies capability', () => {
  const serveDocument = (paths: Record<string, unknown>) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ paths }), { status: 200 })),
    );

  it("is the OpenAPI document's dependencies path", async () => {
    serveDocument({ '/v1/client/job/{job_id}/dependencies': {} });
    expect((await detectCapabilities()).dependencies).toBe(true);
    serveDocument({ '/v1/client/job/{job_id}/attempts': {} });
    expect((await detectCapabilities()).dependencies).toBe(false);
  });
});
