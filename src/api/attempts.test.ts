import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord } from '../../contract';
import { listItem } from '../test/list-item';
import { stubService } from '../test/service';
import { currentAttempt, jobAttemptsQuery, type AttemptsAnswer } from './attempts';
import { jobKeys } from './keys';
import { createLiveCache } from './live-cache';

const ID = '01a20274-e614-709d-917d-d51b4dc7e757';

const ended = (attempt: number) =>
  ({
    attempt,
    state: 'failed',
    exit_code: 1,
    reason: 'exit',
    note: null,
    node: null,
    started_at: '2026-11-26T10:41:15.000Z',
    finished_at: '2026-11-26T10:41:57.000Z',
    retried: true,
  }) as const;

const answer = (attempt: number, items: number): AttemptsAnswer => ({
  attempt,
  attempts_max: 3,
  retry: { attempts: 3 },
  next_attempt_at: null,
  items: Array.from({ length: items }, (_, i) => ended(i + 1)),
});

afterEach(() => vi.unstubAllGlobals());

describe('currentAttempt', () => {
  it('is past the last ended attempt while the job goes on, the last one once final', () => {
    expect(currentAttempt(answer(1, 0), 'running')).toBe(1);
    // Waiting for attempt 2, whichever number the service gives while it waits.
    expect(currentAttempt(answer(1, 1), 'runnable')).toBe(2);
    expect(currentAttempt(answer(2, 1), 'runnable')).toBe(2);
    expect(currentAttempt(answer(3, 3), 'failed')).toBe(3);
  });
});

describe('jobAttemptsQuery', () => {
  let stop: (() => void) | undefined;
  let cache: ReturnType<typeof createLiveCache> | undefined;
  afterEach(() => {
    stop?.();
    cache?.dispose();
  });

  it("is read again when an event changes the job's record, the last answer shown meanwhile", async () => {
    const fetch = stubService([[/\/attempts$/, answer(1, 0)]]);
    const client = new QueryClient();
    const running: JobRecord = listItem(ID, {
      state: 'running',
      updated_at: '2026-11-26T10:41:15.000Z',
    });
    client.setQueryData(jobKeys.detail(ID), running);
    const observer = new QueryObserver(client, jobAttemptsQuery(running));
    stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().data?.items).toEqual([]));

    // The attempt ends; the stream says so, and the page renders with the patched record.
    stubService([[/\/attempts$/, answer(2, 1)]]);
    cache = createLiveCache(client);
    cache.apply(
      listItem(ID, {
        state: 'runnable',
        system_note: 'attempt 2 of 3 starts at 10:42:07 UTC',
        updated_at: '2026-11-26T10:41:57.000Z',
      }),
    );
    const patched = client.getQueryData<JobRecord>(jobKeys.detail(ID))!;
    expect(patched.state).toBe('runnable');
    observer.setOptions(jobAttemptsQuery(patched));
    expect(observer.getCurrentResult().data?.items).toEqual([]);
    await vi.waitFor(() => expect(observer.getCurrentResult().data?.items).toHaveLength(1));
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
