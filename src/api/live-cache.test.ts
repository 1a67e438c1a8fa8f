import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobList, JobListItem, JobState } from '../../contract';
import type { JobFilter } from './jobs';
import { jobKeys } from './keys';
import { createLiveCache } from './live-cache';

const job = (state: JobState, updatedAt: string): JobListItem => ({
  id: '01a20274-e614-709d-917d-d51b4dc7e757',
  name: 'bulk-run',
  state,
  system_note: null,
  schedule_at: null,
  created_at: '2026-11-22T09:00:00.000Z',
  updated_at: updatedAt,
  job_queue: 'default',
  job_definition: 'demo::sleep:1',
  started_at: null,
  finished_at: null,
  exit_code: null,
});

const listOf = (...items: JobListItem[]): JobList => ({
  items,
  next_cursor: null,
  total: items.length,
  total_exact: true,
});

describe('createLiveCache', () => {
  let cache: ReturnType<typeof createLiveCache> | undefined;
  let stopObserving: (() => void) | undefined;
  afterEach(() => {
    cache?.dispose();
    stopObserving?.();
  });

  it('patches a shown row in place, without a request', async () => {
    const client = new QueryClient();
    const queryFn = vi.fn(() =>
      Promise.resolve(listOf(job('running', '2026-11-22T09:00:01.000Z'))),
    );
    const queryKey = jobKeys.list({ states: [] } satisfies JobFilter, undefined);
    const observer = new QueryObserver(client, { queryKey, queryFn });
    stopObserving = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
    cache = createLiveCache(client);

    cache.apply(job('cancelling', '2026-11-22T09:00:02.000Z'));

    expect(client.getQueryData<JobList>(queryKey)?.items[0]?.state).toBe('cancelling');
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('does not let a read that was in flight when a change arrived put back the older state', async () => {
    const client = new QueryClient();
    // The service: what a list read returns, and a read held open until the test lets it answer.
    let serverJob = job('running', '2026-11-22T09:00:01.000Z');
    let hold: Promise<void> | undefined;
    const queryFn = vi.fn(async () => {
      const answer = listOf(serverJob); // read now…
      await hold; // …answered later
      return answer;
    });
    const queryKey = jobKeys.list({ states: [] } satisfies JobFilter, undefined);
    const observer = new QueryObserver(client, { queryKey, queryFn });
    stopObserving = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
    cache = createLiveCache(client);

    // A cancel asks for a fresh list; the service reads it while the job is still stopping.
    serverJob = job('cancelling', '2026-11-22T09:00:02.000Z');
    let answer!: () => void;
    hold = new Promise((resolve) => (answer = resolve));
    void client.invalidateQueries({ queryKey: jobKeys.lists() });
    await vi.waitFor(() => expect(queryFn).toHaveBeenCalledTimes(2));
    // The job stops and its event arrives before that read's answer.
    serverJob = job('cancelled', '2026-11-22T09:00:03.000Z');
    cache.apply(serverJob);
    hold = undefined;
    answer();

    // No further event will come for this job: the list must end on the state it really has.
    await vi.waitFor(
      () => expect(client.getQueryData<JobList>(queryKey)?.items[0]?.state).toBe('cancelled'),
      { timeout: 3000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(client.getQueryData<JobList>(queryKey)?.items[0]?.state).toBe('cancelled');
  });

  it("reads the first page again for a job that newly matches it, never for an array's child", async () => {
    const client = new QueryClient();
    const queryFn = vi.fn(() => Promise.resolve(listOf()));
    const queryKey = jobKeys.list({ states: ['running'] } satisfies JobFilter, undefined);
    const observer = new QueryObserver(client, { queryKey, queryFn });
    stopObserving = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
    cache = createLiveCache(client);

    // The list leaves children out: a thousand of them running cost it no read.
    cache.apply({ ...job('running', '2026-11-22T09:00:01.000Z'), name: 'fan-out:7' });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(queryFn).toHaveBeenCalledTimes(1);
    cache.apply(job('running', '2026-11-22T09:00:02.000Z'));
    await vi.waitFor(() => expect(queryFn).toHaveBeenCalledTimes(2), { timeout: 3000 });
  });
});
