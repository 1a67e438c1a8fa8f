import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { isFinalState, type ArrayAnswer, type JobRecord, type JobState } from '../../contract';
import { nextPollDelay } from '../lib/polling';
import { useSettings } from '../lib/settings';
import { useCapabilities } from './capabilities';
import { getJobArray } from './jobs';
import { jobKeys } from './keys';
import { isPermanent } from './queries';

// The answer's shape is the contract's (contract/arrays.ts), read as the service writes it.
export type { ArrayAnswer, ArrayChild } from '../../contract';

/** Children per page: a compact table of a few screens. */
export const ARRAY_PAGE_SIZE = 100;

/** An array's parent: its size, its children counted by state, and those loaded. */
export const isArrayParent = (
  answer: ArrayAnswer | null,
): answer is ArrayAnswer & { size: number } => answer?.size != null;

/** How many children a parent has: those of its `indexes` when it was given some, else its size. */
export const childCountOf = (parent: ArrayAnswer & { size: number }) =>
  parent.indexes?.length ?? parent.size;

/** How many of its children have not ended (0 for any job but an array's parent). */
export const childrenNotEnded = (answer: ArrayAnswer) =>
  Object.entries(answer.counts).reduce(
    (sum, [state, count]) => (isFinalState(state as JobState) ? sum : sum + count),
    0,
  );

/** Children are released and cancelled with their parent: while it waits, none of them moves. */
const childrenMayMove = (parent: JobState) => parent !== 'submitted' && parent !== 'pending';

/** Every page loaded as one answer: the first page's size and counts, the children of all. */
const asOneAnswer = (data: InfiniteData<ArrayAnswer | null>): ArrayAnswer | null => {
  const first = data.pages[0];
  if (!first) return null;
  const pages = data.pages.filter((page): page is ArrayAnswer => page !== null);
  return {
    ...first,
    items: pages.flatMap((page) => page.items),
    next_cursor: pages.at(-1)?.next_cursor ?? null,
  };
};

/**
 * The job's place in arrays: for a parent, its children in `states` (all when empty) a page at a
 * time, by index. Its children change without its record changing (its note's counts, too), so
 * it is polled like Job Detail while one of them has not ended and its parent has been released:
 * every `pollMs`, backing off on errors, paused while the tab is hidden. A poll reads every page
 * shown again, so the more pages, the rarer the polls: at most one request per `pollMs`. Any
 * other job is read once. While a filter's first read is under way, the last answer stays shown.
 */
export function jobArrayQuery(job: JobRecord, states: readonly JobState[], pollMs: number) {
  return infiniteQueryOptions({
    queryKey: jobKeys.arrayChildren(job.id, states),
    queryFn: ({ pageParam }) =>
      getJobArray(job.id, { states, cursor: pageParam, limit: ARRAY_PAGE_SIZE }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last?.next_cursor ?? undefined,
    select: asOneAnswer,
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === job.id ? previous : undefined,
    retry: false,
    refetchInterval: (query) => {
      const pages = query.state.data?.pages ?? [];
      const first = pages[0];
      if (!first || !childrenMayMove(job.state) || childrenNotEnded(first) === 0) return false;
      const delay = nextPollDelay({
        state: undefined,
        consecutiveErrors: query.state.fetchFailureCount,
        permanentError: isPermanent(query.state.error),
        baseMs: pollMs,
      });
      return delay === false ? false : delay * pages.length;
    },
  });
}

/** The job's place in arrays as the page shows it, and the loading of more of its children. */
export interface JobArrayView {
  array: ArrayAnswer | null;
  /** A new filter's first answer is under way: `array` is the last filter's meanwhile. */
  filtering: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

/**
 * The job's place in arrays, only from a service that has them (no request otherwise): `array`
 * null then, and until the first answer.
 */
export function useJobArray(job: JobRecord, states: readonly JobState[]): JobArrayView {
  const offered = useCapabilities().data?.arrays ?? false;
  const { pollSeconds } = useSettings();
  const query = useInfiniteQuery({
    ...jobArrayQuery(job, states, pollSeconds * 1000),
    enabled: offered,
  });
  return {
    array: offered ? (query.data ?? null) : null,
    filtering: query.isPlaceholderData,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}
