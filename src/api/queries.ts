import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { isFinalState, type JobRecord, type JobState } from '../../contract';
import { nextPollDelay } from '../lib/polling';
import { isApiError } from './client';
import { getJob, getJobLogs, getJobTransitions, listJobs } from './jobs';

/** Query keys live here and only here. */
export const jobKeys = {
  all: ['jobs'] as const,
  detail: (id: string) => [...jobKeys.all, 'detail', id] as const,
  logs: (id: string) => [...jobKeys.all, 'logs', id] as const,
  transitions: (id: string) => [...jobKeys.all, 'transitions', id] as const,
  list: (state: JobState | undefined) => [...jobKeys.all, 'list', state ?? 'any'] as const,
};

/** 4xx other than 429 will not get better by asking again. */
const isPermanent = (error: unknown) =>
  isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 429;

/**
 * Job Detail, polled while the job is active: every `pollMs`, backing off on errors, paused
 * while the tab is hidden (react-query's default), stopped at a final state or a permanent error.
 */
export function jobDetailQuery(id: string, pollMs: number) {
  return queryOptions({
    queryKey: jobKeys.detail(id),
    queryFn: () => getJob(id),
    retry: false,
    refetchInterval: (query) =>
      nextPollDelay({
        state: query.state.data?.state,
        consecutiveErrors: query.state.fetchFailureCount,
        permanentError: isPermanent(query.state.error),
        baseMs: pollMs,
      }),
  });
}

/** Logs and history change only while the job runs; refreshed with the job, not on a timer. */
export function jobLogsQuery(job: JobRecord) {
  return queryOptions({
    queryKey: [...jobKeys.logs(job.id), job.state] as const,
    queryFn: () => getJobLogs(job.id),
    enabled: isFinalState(job.state) || job.state === 'running',
    retry: false,
  });
}

export function jobTransitionsQuery(job: JobRecord) {
  return queryOptions({
    queryKey: [...jobKeys.transitions(job.id), job.state, job.updated_at] as const,
    queryFn: () => getJobTransitions(job.id),
    retry: false,
  });
}

/** The project's jobs page by page (extension), refreshed while the page is open. */
export function jobListQuery(state: JobState | undefined, pollMs: number) {
  return infiniteQueryOptions({
    queryKey: jobKeys.list(state),
    queryFn: ({ pageParam }) => listJobs({ state, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page?.next_cursor ?? undefined,
    refetchInterval: pollMs * 4,
    retry: false,
  });
}
