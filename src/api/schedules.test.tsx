import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobListItem } from '../../contract';
import { schedule } from '../test/schedule';
import { scheduleKeys } from './keys';
import { createLiveCache } from './live-cache';
import { mayBeNewFiring, withFiringState } from './schedule-firings';
import {
  MAX_SCHEDULE_REFRESH_MS,
  MIN_SCHEDULE_REFRESH_MS,
  scheduleRefetchDelay,
  usePauseSchedule,
  useResumeSchedule,
} from './schedules';

const NOW = Date.parse('2026-11-26T18:00:00.000Z');
const inMs = (ms: number) => new Date(NOW + ms).toISOString();

afterEach(() => vi.unstubAllGlobals());

describe('scheduleRefetchDelay', () => {
  it('reads the list just after the earliest next firing of an active schedule', () => {
    const schedules = [
      schedule({ name: 'a', next_firings: [inMs(40_000)] }),
      schedule({ name: 'b', next_firings: [inMs(20_000), inMs(25_000)] }),
      schedule({ name: 'c', paused: true, next_firings: [inMs(10_000)] }),
    ];
    expect(scheduleRefetchDelay(schedules, 'live', NOW)).toBe(21_000);
  });

  it('polls as the lists do while the stream is not live, sooner when a firing is due', () => {
    expect(scheduleRefetchDelay([schedule({ next_firings: [inMs(60_000)] })], 'down', NOW)).toBe(
      6000,
    );
    expect(scheduleRefetchDelay([], 'off', NOW)).toBe(6000);
    expect(scheduleRefetchDelay([], 'live', NOW)).toBe(false);
    expect(scheduleRefetchDelay([schedule({ paused: true })], 'live', NOW)).toBe(false);
  });

  it('reads a minute after at most, however far off the next firing is', () => {
    // A year away: more than a timer can wait (2^31 - 1 ms), which would fire at once.
    const far = [schedule({ next_firings: [inMs(365 * 24 * 3600 * 1000)] })];
    expect(scheduleRefetchDelay(far, 'live', NOW)).toBe(MAX_SCHEDULE_REFRESH_MS);
  });

  it('reads no more often than every 5 s, however often a schedule fires', () => {
    const due = [schedule({ next_firings: [inMs(1000)] })];
    expect(scheduleRefetchDelay(due, 'live', NOW)).toBe(MIN_SCHEDULE_REFRESH_MS);
    const passed = [schedule({ next_firings: [inMs(-3000)] })];
    expect(scheduleRefetchDelay(passed, 'down', NOW)).toBe(MIN_SCHEDULE_REFRESH_MS);
  });
});

const jobEvent = (id: string, state: JobListItem['state']): JobListItem => ({
  id,
  name: 'every-5s-1800',
  state,
  system_note: null,
  schedule_at: null,
  created_at: '2026-11-26T18:00:00.100Z',
  updated_at: '2026-11-26T18:00:01.000Z',
  job_queue: 'demo::default',
  job_definition: 'demo::hello:1',
  started_at: null,
  finished_at: null,
  exit_code: null,
});

describe('a firing’s job on the event stream', () => {
  const shown = [schedule()];
  const jobId = shown[0]!.recent[0]!.job_id!;

  it('shows the job’s new state at its firing', () => {
    const patched = withFiringState(shown, jobEvent(jobId, 'completed'));
    expect(patched[0]!.recent[0]!.state).toBe('completed');
    expect(shown[0]!.recent[0]!.state).toBe('running');
  });

  it('leaves the list as it was for a job no firing submitted, or no change', () => {
    expect(withFiringState(shown, jobEvent('another', 'completed'))).toBe(shown);
    expect(withFiringState(shown, jobEvent(jobId, 'running'))).toBe(shown);
  });

  it('may be a new firing’s when it is submitted to an active schedule’s definition and queue', () => {
    expect(mayBeNewFiring(shown, jobEvent('another', 'submitted'))).toBe(true);
    expect(mayBeNewFiring(shown, jobEvent(jobId, 'completed'))).toBe(false);
    const elsewhere = { ...jobEvent('another', 'submitted'), job_queue: 'demo::held' };
    expect(mayBeNewFiring(shown, elsewhere)).toBe(false);
    expect(mayBeNewFiring([schedule({ paused: true })], jobEvent('another', 'submitted'))).toBe(
      false,
    );
  });

  it('reads the list again, once, for jobs that may be new firings', async () => {
    vi.useFakeTimers();
    try {
      const client = new QueryClient();
      const queryFn = vi.fn(() => Promise.resolve(shown));
      const observer = new QueryObserver(client, { queryKey: scheduleKeys.list(), queryFn });
      const stop = observer.subscribe(() => undefined);
      await vi.advanceTimersByTimeAsync(0);
      expect(queryFn).toHaveBeenCalledTimes(1);
      const cache = createLiveCache(client);
      cache.apply(jobEvent('new-1', 'submitted'));
      cache.apply(jobEvent('new-1', 'runnable'));
      await vi.advanceTimersByTimeAsync(1000);
      expect(queryFn).toHaveBeenCalledTimes(2);
      cache.dispose();
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('is applied by the live cache without a request', async () => {
    const client = new QueryClient();
    const queryFn = vi.fn(() => Promise.resolve(shown));
    const observer = new QueryObserver(client, { queryKey: scheduleKeys.list(), queryFn });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
    const cache = createLiveCache(client);
    cache.apply(jobEvent(jobId, 'failed'));
    const list = client.getQueryData<typeof shown>(scheduleKeys.list());
    expect(list?.[0]?.recent[0]?.state).toBe('failed');
    expect(queryFn).toHaveBeenCalledTimes(1);
    cache.dispose();
    stop();
  });
});

/** A service that answers pause and resume with the schedule as it is then. */
function stubActions() {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    if (path.endsWith('/pause')) {
      const reason = (JSON.parse(String(init?.body)) as { reason?: string }).reason ?? null;
      const data = schedule({ paused: true, paused_reason: reason, next_firings: [] });
      return new Response(JSON.stringify({ ok: true, data }), { status: 200 });
    }
    return new Response(JSON.stringify({ ok: false, message: 'no schedule named gone' }), {
      status: 404,
    });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function withClient() {
  const client = new QueryClient();
  client.setQueryData(scheduleKeys.list(), [schedule({ name: 'other' }), schedule()]);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return { client, wrapper };
}

describe('pause and resume', () => {
  it('pause sends the reason, trimmed, and puts the answer in the list', async () => {
    const fetch = stubActions();
    const { client, wrapper } = withClient();
    const { result } = renderHook(() => usePauseSchedule(), { wrapper });
    result.current.mutate({ name: 'every-5s', reason: '  disk full ' });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    const [path, init] = fetch.mock.calls[0]!;
    expect(String(path)).toBe('/v1/client/schedules/every-5s/pause');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ reason: 'disk full' });
    const list = client.getQueryData<ReturnType<typeof schedule>[]>(scheduleKeys.list());
    expect(list?.map((s) => [s.name, s.paused, s.paused_reason])).toEqual([
      ['other', false, null],
      ['every-5s', true, 'disk full'],
    ]);
  });

  it('pause without a reason sends none', async () => {
    const fetch = stubActions();
    const { wrapper } = withClient();
    const { result } = renderHook(() => usePauseSchedule(), { wrapper });
    result.current.mutate({ name: 'every-5s', reason: '   ' });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(JSON.parse(String(fetch.mock.calls[0]![1]?.body))).toEqual({});
  });

  it('resume of an unknown schedule fails with the service’s message, the list unchanged', async () => {
    stubActions();
    const { client, wrapper } = withClient();
    const before = client.getQueryData(scheduleKeys.list());
    const { result } = renderHook(() => useResumeSchedule(), { wrapper });
    result.current.mutate('gone');
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error?.message).toBe('no schedule named gone');
    expect(client.getQueryData(scheduleKeys.list())).toBe(before);
  });
});
