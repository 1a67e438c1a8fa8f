import { queryOptions } from '@tanstack/react-query';
import { isFinalState, type JobRecord } from '../../contract';
import { nextPollDelay } from '../lib/polling';
import { isApiError } from './client';
import { listRefetchInterval, type StreamStatus } from './events';
import {
  getJob,
  getJobArray,
  getJobExecution,
  getJobTransitions,
  listJobs,
  type JobFilter,
} from './jobs';
import { listDefinitions } from './definitions';
import { catalogKeys, jobKeys, queueKeys } from './keys';
import { isNewer } from './live-cache';
import { listQueues } from './queues';

/** 4xx other than 429 will not get better by asking again. */
export const isPermanent = (error: unknown) =>
  isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 429;

/**
 * Job Detail, polled while the job is active: every `pollMs`, backing off on errors, paused
 * while the tab is hidden (react-query's default), stopped at a final state or a permanent error.
 */
export function jobDetailQuery(id: string, pollMs: number) {
  return queryOptions({
    queryKey: jobKeys.detail(id),
    queryFn: async ({ client }) => {
      const read = await getJob(id);
      // The event stream may have shown a newer record while this read was under way: an answer
      // older than what is shown never puts the page back (cancelled → cancelling for a poll).
      const shown = client.getQueryData<JobRecord>(jobKeys.detail(id));
      return shown && !isNewer(read, shown) ? shown : read;
    },
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

/** History changes only with the job: read again when the record changes, not on a timer. */
export function jobTransitionsQuery(job: JobRecord) {
  return queryOptions({
    queryKey: jobKeys.transitions(job.id, job.updated_at),
    queryFn: () => getJobTransitions(job.id),
    retry: false,
  });
}

/**
 * What a job ran, to submit it again (extension), and for an array's parent its size (it runs
 * nothing of its own: submitted again without it, it would run once): read once, whatever became
 * of the job. Null when the service does not describe executions.
 */
export function resubmitSourceQuery(id: string) {
  return queryOptions({
    queryKey: jobKeys.resubmitSource(id),
    queryFn: async () => {
      const [execution, array] = await Promise.all([
        getJobExecution(id),
        getJobArray(id, { states: [], limit: 1 }),
      ]);
      return (
        execution && {
          execution,
          arraySize: array?.size ?? null,
          arrayIndexes: array?.indexes ?? [],
        }
      );
    },
    staleTime: Infinity,
    retry: false,
  });
}

/**
 * What ran: read again at each state change (exit code, finish time), settled once final. Found
 * ended while the record it was read for is not, it reads the record again before it answers: the
 * page's state then changes before (never after) the exit code shows. While the next state's read
 * is under way, the last one stays shown.
 */
export function jobExecutionQuery(job: JobRecord) {
  return queryOptions({
    queryKey: jobKeys.execution(job.id, job.state),
    queryFn: async ({ client }) => {
      const execution = await getJobExecution(job.id);
      if (execution?.finished_at && !isFinalState(job.state))
        await client.refetchQueries({ queryKey: jobKeys.detail(job.id), exact: true });
      return execution;
    },
    staleTime: isFinalState(job.state) ? Infinity : 0,
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === job.id ? previous : undefined,
    retry: false,
  });
}

export const JOBS_PAGE_SIZE = 50;

/**
 * One page of the project's jobs (extension). Kept fresh by the event stream while it is live;
 * polled otherwise. One page per query, so a poll is one request however far the reader paged.
 */
export function jobListQuery(filter: JobFilter, cursor: string | undefined, stream: StreamStatus) {
  return queryOptions({
    queryKey: jobKeys.list(filter, cursor),
    queryFn: () => listJobs(filter, { cursor, limit: JOBS_PAGE_SIZE }),
    refetchInterval: listRefetchInterval(stream),
    placeholderData: (previous) => previous,
    retry: false,
  });
}

/**
 * A queue paused or resized by another operator sends no job event: while the stream is live,
 * the queues are read this often anyway.
 */
const QUEUE_CHANGES_REFRESH_MS = 30_000;

/** The project's queues and their counts (extension), fresh the same way as the list. */
export function queueListQuery(stream: StreamStatus) {
  return queryOptions({
    queryKey: queueKeys.list(),
    queryFn: listQueues,
    refetchInterval: listRefetchInterval(stream) || QUEUE_CHANGES_REFRESH_MS,
    retry: false,
  });
}

/**
 * The project's definitions and queue names for the submit form's pickers (extensions; null when
 * the service has none). Read once a minute at most: they change only with the configuration.
 */
export const definitionListQuery = queryOptions({
  queryKey: catalogKeys.definitions(),
  queryFn: listDefinitions,
  staleTime: 60_000,
  retry: false,
});

export const queueNamesQuery = queryOptions({
  queryKey: queueKeys.list(),
  queryFn: listQueues,
  staleTime: 60_000,
  retry: false,
  select: (queues) => queues?.map((q) => q.queue) ?? null,
});
