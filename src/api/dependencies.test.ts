import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord } from '../../contract';
import { listItem } from '../test/list-item';
import { stubService } from '../test/service';
import { detectCapabilities } from './capabilities';
import {
  jobDependenciesQuery,
  withJobState,
  type DependenciesAnswer,
  type DependencyEdge,
} from './dependencies';
import { jobKeys } from './keys';
import { createLiveCache } from './live-cache';

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
const answerOfB = (fields: Partial<DependencyEdge> = {}): DependenciesAnswer => ({
  depends_on: [edge(A, fields)],
  dependents: [edge(C, { state: 'pending' })],
  dependents_total: 1,
});

afterEach(() => vi.unstubAllGlobals());

describe('withJobState', () => {
  it('judges again a dependency on the job that changed, as the contract does', () => {
    expect(withJobState(answerOfB(), { id: A, state: 'failed' }).depends_on).toEqual([
      edge(A, { state: 'failed', status: 'unmeetable' }),
    ]);
    expect(withJobState(answerOfB(), { id: A, state: 'completed' }).depends_on).toEqual([
      edge(A, { state: 'completed', status: 'met' }),
    ]);
  });

  it("changes only the state of a job waiting for this one (its status is this job's)", () => {
    const patched = withJobState(answerOfB(), { id: C, state: 'cancelled' });
    expect(patched.dependents).toEqual([edge(C, { state: 'cancelled' })]);
    expect(patched.depends_on).toEqual(answerOfB().depends_on);
  });

  it('gives the same answer for a job not in it or a state unchanged', () => {
    const answer = answerOfB();
    expect(withJobState(answer, { id: B, state: 'completed' })).toBe(answer);
    expect(withJobState(answer, { id: A, state: 'running' })).toBe(answer);
  });
});

describe('jobDependenciesQuery', () => {
  let stop: (() => void) | undefined;
  let cache: ReturnType<typeof createLiveCache> | undefined;
  afterEach(() => {
    stop?.();
    cache?.dispose();
  });

  const pendingB: JobRecord = listItem(B, {
    state: 'pending',
    system_note: 'waiting for job a (A) to complete (it is running)',
    updated_at: '2026-11-26T10:41:15.000Z',
  });

  it('takes the other jobs’ changes from the event stream, without a request', async () => {
    const fetch = stubService([[/\/dependencies$/, answerOfB()]]);
    const client = new QueryClient();
    const observer = new QueryObserver(client, jobDependenciesQuery(pendingB));
    stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(answerOfB()));

    cache = createLiveCache(client);
    cache.apply(listItem(A, { state: 'completed', updated_at: '2026-11-26T10:41:20.000Z' }));
    expect(observer.getCurrentResult().data?.depends_on).toEqual([
      edge(A, { state: 'completed', status: 'met' }),
    ]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('reads again a read that was under way when another job changed', async () => {
    let answer = answerOfB();
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const fetch = vi.fn(async () => {
      const data = answer; // as the service saw it when the read arrived
      await answered;
      return new Response(JSON.stringify({ ok: true, data }), { status: 200 });
    });
    vi.stubGlobal('fetch', fetch);
    const client = new QueryClient();
    const observer = new QueryObserver(client, jobDependenciesQuery(pendingB));
    stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));

    cache = createLiveCache(client);
    cache.apply(listItem(A, { state: 'completed', updated_at: '2026-11-26T10:41:20.000Z' }));
    answer = answerOfB({ state: 'completed', status: 'met' });
    release();
    // After the live cache's batch of re-reads (a second).
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(answer), {
      timeout: 5000,
    });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("is read again when the job's own record changes, the last answer shown meanwhile", async () => {
    const fetch = stubService([[/\/dependencies$/, answerOfB()]]);
    const client = new QueryClient();
    const observer = new QueryObserver(client, jobDependenciesQuery(pendingB));
    stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBeDefined());

    const met = answerOfB({ state: 'completed', status: 'met' });
    stubService([[/\/dependencies$/, met]]);
    observer.setOptions(
      jobDependenciesQuery({
        ...pendingB,
        state: 'runnable',
        system_note: null,
        updated_at: '2026-11-26T10:41:21.000Z',
      }),
    );
    expect(observer.getCurrentResult().data).toEqual(answerOfB());
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(met));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(client.getQueryData(jobKeys.dependencies(B, '2026-11-26T10:41:21.000Z'))).toEqual(met);
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
