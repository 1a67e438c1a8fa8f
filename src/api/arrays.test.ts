import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord, JobState } from '../../contract';
import { arrayChild, notInArray, parentAnswer } from '../test/array';
import { requestedPaths, stubService } from '../test/service';
import { ARRAY_PAGE_SIZE, childrenNotEnded, jobArrayQuery, type ArrayAnswer } from './arrays';
import { detectCapabilities } from './detect-capabilities';

const PARENT = '01a20274-e614-709d-917d-d51b4dc7e757';

const parentRecord = (state: JobState): JobRecord => ({
  id: PARENT,
  name: 'fan-out',
  state,
  system_note: null,
  schedule_at: null,
  created_at: '2026-11-26T10:40:00.000Z',
  updated_at: '2026-11-26T10:41:00.000Z',
});

const running = parentAnswer(3, [
  arrayChild(0),
  arrayChild(1, { state: 'running', exit_code: null, finished_at: null }),
  arrayChild(2, { state: 'runnable', exit_code: null, started_at: null, finished_at: null }),
]);
const ended = parentAnswer(3, [arrayChild(0), arrayChild(1), arrayChild(2)]);

afterEach(() => vi.unstubAllGlobals());

/** Observes the query as a page would; stopped after each test. */
function observe(options: ReturnType<typeof jobArrayQuery>) {
  const observer = new InfiniteQueryObserver(new QueryClient(), options);
  stop = observer.subscribe(() => undefined);
  return observer;
}
let stop: (() => void) | undefined;
afterEach(() => stop?.());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('childrenNotEnded', () => {
  it('counts the children in a state that is not final', () => {
    expect(childrenNotEnded(running)).toBe(2);
    expect(childrenNotEnded(ended)).toBe(0);
    expect(childrenNotEnded(notInArray)).toBe(0);
  });
});

describe('jobArrayQuery', () => {
  it('asks for a page of the children in the states given, by cursor, and shows every page as one', async () => {
    const first = parentAnswer(250, [arrayChild(0)], {
      counts: { completed: 250 },
      next_cursor: '99',
    });
    const second = parentAnswer(250, [arrayChild(100)], {
      counts: { completed: 250 },
      next_cursor: '199',
    });
    const fetch = stubService([
      [/cursor=99/, second],
      [/\/array\?/, first],
    ]);
    const observer = observe(jobArrayQuery(parentRecord('completed'), ['completed', 'failed'], 20));
    await vi.waitFor(() => expect(observer.getCurrentResult().data?.items).toHaveLength(1));
    await observer.fetchNextPage();
    const shown = observer.getCurrentResult().data as ArrayAnswer;
    expect(shown.items.map((child) => child.index)).toEqual([0, 100]);
    expect(shown).toMatchObject({ size: 250, counts: { completed: 250 }, next_cursor: '199' });
    expect(observer.getCurrentResult().hasNextPage).toBe(true);
    expect(requestedPaths(fetch)).toEqual([
      `/v1/client/job/${PARENT}/array?state=completed%2Cfailed&limit=${ARRAY_PAGE_SIZE}`,
      `/v1/client/job/${PARENT}/array?state=completed%2Cfailed&cursor=99&limit=${ARRAY_PAGE_SIZE}`,
    ]);
  });

  it('is polled while a child has not ended, and no more once they all ended', async () => {
    const fetch = stubService([[/\/array\?/, running]]);
    const observer = observe(jobArrayQuery(parentRecord('running'), [], 20));
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(running));
    stubService([[/\/array\?/, ended]]);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(ended));
    const calls = fetch.mock.calls.length;
    await pause(100);
    expect(fetch.mock.calls.length).toBe(calls);
  });

  it('is not polled while its parent waits (its children wait with it), nor for a job in no array', async () => {
    const waiting = parentAnswer(3, [
      arrayChild(0, { state: 'pending', exit_code: null, started_at: null, finished_at: null }),
    ]);
    const fetch = stubService([[/\/array\?/, waiting]]);
    const observer = observe(jobArrayQuery(parentRecord('pending'), [], 20));
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(waiting));
    await pause(100);
    expect(fetch).toHaveBeenCalledTimes(1);
    // Released: polled from then on.
    observer.setOptions(jobArrayQuery(parentRecord('runnable'), [], 20));
    await vi.waitFor(() => expect(fetch.mock.calls.length).toBeGreaterThan(2));

    stop?.();
    const plain = stubService([[/\/array\?/, notInArray]]);
    const other = observe(jobArrayQuery({ ...parentRecord('running'), id: 'x' }, [], 20));
    await vi.waitFor(() => expect(other.getCurrentResult().data).toEqual(notInArray));
    await pause(100);
    expect(plain).toHaveBeenCalledTimes(1);
  });

  it('polls more rarely the more pages are shown: at most one request per interval', () => {
    // Called as react-query calls it, with the query's state: `pages` pages shown.
    const interval = jobArrayQuery(parentRecord('running'), [], 1500).refetchInterval as (
      query: unknown,
    ) => number | false;
    const shown = (pages: number, fetchFailureCount = 0) => ({
      state: { data: { pages: Array(pages).fill(running) }, fetchFailureCount, error: null },
    });
    expect(interval(shown(1))).toBe(1500);
    expect(interval(shown(3))).toBe(4500);
    // Backing off on errors as Job Detail does, for every page.
    expect(interval(shown(2, 1))).toBe(6000);
  });

  it('is null from a service without arrays (a 404)', async () => {
    stubService([]);
    const observer = observe(jobArrayQuery(parentRecord('running'), [], 20));
    await vi.waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
    expect(observer.getCurrentResult().data).toBeNull();
  });
});

describe('the arrays capability', () => {
  it("is the OpenAPI document's array path", async () => {
    const serve = (paths: Record<string, unknown>) =>
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => new Response(JSON.stringify({ paths }), { status: 200 })),
      );
    serve({ '/v1/client/job/{job_id}/array': {} });
    expect((await detectCapabilities()).arrays).toBe(true);
    serve({ '/v1/client/job/{job_id}/dependencies': {} });
    expect((await detectCapabilities()).arrays).toBe(false);
  });
});
