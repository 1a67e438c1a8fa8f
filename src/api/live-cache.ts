import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { JobList, JobListItem, JobRecord, Schedule } from '../../contract';
import { matchesFilter } from './job-filter';
import type { JobFilter } from './jobs';
import { jobKeys, queueKeys, scheduleKeys } from './keys';
import { mayBeNewFiring, withFiringState } from './schedule-firings';

/** The spec's seven fields of a list row: what Job Detail's cache holds. */
function recordOf(job: JobListItem): JobRecord {
  const { id, name, state, system_note, schedule_at, created_at, updated_at } = job;
  return { id, name, state, system_note, schedule_at, created_at, updated_at };
}

/** Events and polls race: a record older than the one shown never replaces it. */
export const isNewer = (job: JobRecord, shown: JobRecord) =>
  Date.parse(job.updated_at ?? job.created_at) >= Date.parse(shown.updated_at ?? shown.created_at);

/** How often refetches asked for by events are run at most: a burst of changes costs one. */
const REFETCH_BATCH_MS = 1000;

/** A read in flight may have been answered before this change: its answer would undo the patch. */
const isFetching = (queryClient: QueryClient, key: QueryKey) =>
  queryClient.getQueryState(key)?.fetchStatus === 'fetching';

/**
 * Applies the event stream to the query cache: a row or a job already shown is patched in
 * place (no request, unless a read of it was in flight: it is read again after), and so is the
 * schedule firing that submitted it; a list that gains or loses a job, the queue counts, and the
 * schedules when a job may be a new firing's, are refetched, batched so that a burst of events
 * costs one request per query.
 */
export function createLiveCache(queryClient: QueryClient) {
  const stale = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const markStale = (key: QueryKey) => {
    stale.set(JSON.stringify(key), key);
    timer ??= setTimeout(() => {
      timer = undefined;
      const keys = [...stale.values()];
      stale.clear();
      for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey, exact: true });
    }, REFETCH_BATCH_MS);
  };

  const applyToLists = (job: JobListItem) => {
    for (const [key, list] of queryClient.getQueriesData<JobList | null>({
      queryKey: jobKeys.lists(),
    })) {
      if (!list) continue;
      const { filter, cursor } = key[2] as { filter: JobFilter; cursor: string | null };
      const index = list.items.findIndex((row) => row.id === job.id);
      const belongs = matchesFilter(filter, job);
      if (index >= 0 && !isNewer(job, list.items[index]!)) continue;
      if (index >= 0 && belongs) {
        queryClient.setQueryData<JobList>(key, {
          ...list,
          items: list.items.map((row) => (row.id === job.id ? job : row)),
        });
        // In the service's sort the job may have moved: the page is read again.
        if (filter.sort || isFetching(queryClient, key)) markStale(key);
      } else if (index >= 0 || (belongs && (cursor === null || filter.sort))) {
        // Newest first: a job that newly matches shows on the first page; sorted, on any.
        markStale(key);
      }
    }
  };

  return {
    apply(job: JobListItem) {
      const detail = jobKeys.detail(job.id);
      queryClient.setQueryData<JobRecord>(detail, (shown) =>
        shown && isNewer(job, shown) ? recordOf(job) : shown,
      );
      if (isFetching(queryClient, detail)) markStale(detail);
      applyToLists(job);
      markStale(queueKeys.list());
      // A firing's job changes state: patched in place; a job that may be a new firing's: read.
      const schedules = queryClient.getQueryData<Schedule[] | null>(scheduleKeys.list());
      if (schedules) {
        const patched = withFiringState(schedules, job);
        if (patched !== schedules) queryClient.setQueryData(scheduleKeys.list(), patched);
        if (mayBeNewFiring(schedules, job) || isFetching(queryClient, scheduleKeys.list()))
          markStale(scheduleKeys.list());
      }
    },
    /** After a gap in the stream: what it missed may have changed anything shown. */
    refreshAll() {
      void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: queueKeys.all });
      void queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
    },
    dispose() {
      clearTimeout(timer);
    },
  };
}
