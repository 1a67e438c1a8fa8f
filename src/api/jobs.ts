import {
  acceptedBodySchema,
  arrayAnswerSchema,
  jobOperations,
  jobExecutionSchema,
  jobListSchema,
  jobLogsSchema,
  jobRecordSchema,
  jobTransitionsSchema,
  resubmitJobResultSchema,
  submitJobResultSchema,
  successEnvelope,
  type ArrayAnswer,
  type BulkFilter,
  type JobExecution,
  type JobList,
  type JobListItem,
  type JobLogs,
  type JobRecord,
  type JobState,
  type JobTransition,
  type ListSort,
  type SubmitJobRequest,
} from '../../contract';
import { isApiError, requestOperation } from './client';

/** The path parameters of an operation on one job. */
export const onJob = (id: string) => ({ params: { job_id: id } });

/**
 * Job Submit: resolves with the new job's id. With `idempotencyKey`, a retry with the same key
 * and payload answers with the job the first made (a service without the extension ignores it).
 */
export async function submitJob(
  payload: SubmitJobRequest,
  idempotencyKey?: string,
): Promise<string> {
  const body = await requestOperation(
    jobOperations.submitJob,
    successEnvelope(submitJobResultSchema),
    {
      body: payload,
      ...(idempotencyKey !== undefined && { headers: { 'Idempotency-Key': idempotencyKey } }),
    },
  );
  return body.data.id;
}

/** Submits a finished job again in the service, its sensitive values kept there (extension). */
export async function resubmitJob(id: string): Promise<string> {
  const body = await requestOperation(
    jobOperations.resubmitJob,
    successEnvelope(resubmitJobResultSchema),
    onJob(id),
  );
  return body.data.id;
}

/** Job Detail. */
export async function getJob(id: string): Promise<JobRecord> {
  return (await requestOperation(jobOperations.getJob, successEnvelope(jobRecordSchema), onJob(id)))
    .data;
}

/** Cancel Job: resolves once the request is accepted (the job may still be running). */
export async function cancelJob(id: string): Promise<void> {
  await requestOperation(jobOperations.cancelJob, acceptedBodySchema, onJob(id));
}

/**
 * Extensions of Jobdeck's own service. A service that speaks only the spec answers 404 or 405
 * on these paths for a job that exists: that means "not available", not an error.
 */
export async function optional<T>(request: () => Promise<T>): Promise<T | null> {
  try {
    return await request();
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 405)) return null;
    throw error;
  }
}

/** Extension: the container's output, only what came after `since` when given. */
export function getJobLogs(id: string, since?: string): Promise<JobLogs | null> {
  const query = since === undefined ? '' : `since=${encodeURIComponent(since)}`;
  return optional(
    async () =>
      (
        await requestOperation(jobOperations.getJobLogs, successEnvelope(jobLogsSchema), {
          ...onJob(id),
          query,
        })
      ).data,
  );
}

export function getJobTransitions(id: string): Promise<JobTransition[] | null> {
  return optional(
    async () =>
      (
        await requestOperation(
          jobOperations.getJobTransitions,
          successEnvelope(jobTransitionsSchema),
          onJob(id),
        )
      ).data.items,
  );
}

/** Extension: what ran and where; null when the service does not describe executions. */
export function getJobExecution(id: string): Promise<JobExecution | null> {
  return optional(
    async () =>
      (
        await requestOperation(
          jobOperations.getJobExecution,
          successEnvelope(jobExecutionSchema),
          onJob(id),
        )
      ).data,
  );
}

/**
 * Extension: an array's parent's children in `states` (all when empty), a page from `cursor` on,
 * by index, with its size and counts; a child's parent and index; nulls for any other job. Null
 * when the service has no arrays.
 */
export function getJobArray(
  id: string,
  page: { states: readonly JobState[]; cursor?: string; limit: number },
): Promise<ArrayAnswer | null> {
  const query = new URLSearchParams();
  if (page.states.length > 0) query.set('state', page.states.join(','));
  if (page.cursor) query.set('cursor', page.cursor);
  query.set('limit', String(page.limit));
  return optional(
    async () =>
      (
        await requestOperation(jobOperations.getJobArray, successEnvelope(arrayAnswerSchema), {
          ...onJob(id),
          query,
        })
      ).data,
  );
}

/** The list's filters, as the console keeps them (and as the URL of the jobs table holds them). */
export interface JobFilter {
  states: JobState[];
  queue?: string;
  /** Jobs whose name starts with this. */
  name?: string;
  createdAfter?: string;
  createdBefore?: string;
  /** Created within this long before each read: a window that slides while the list is open. */
  createdWithinMs?: number;
  /** Labels every job has: `key=value`, or `key` for any value. */
  labels?: string[];
  /** Ended within this long before each read (a service with `ended_after`). */
  endedWithinMs?: number;
  /** Ended in this range (ISO times): an incident's window on the trends. */
  endedAfter?: string;
  endedBefore?: string;
  /** The service's order of every matching job; left out, newest first. */
  sort?: ListSort;
  /** These jobs only (a failure group's, at most the list's limit of ids). */
  ids?: string[];
}

/**
 * The filter as the service takes it (a sliding window fixed at this moment): the list's query
 * and a bulk action's `filter`.
 */
export function filterFields(filter: JobFilter): BulkFilter {
  const windowStart =
    filter.createdWithinMs === undefined
      ? undefined
      : new Date(Date.now() - filter.createdWithinMs).toISOString();
  const after = [filter.createdAfter, windowStart].filter(Boolean).sort().at(-1);
  const fields: BulkFilter = {};
  if (filter.states.length > 0) fields.state = filter.states;
  if (filter.queue) fields.queue = filter.queue;
  if (filter.name) fields.name = filter.name;
  if (after) fields.created_after = after;
  if (filter.createdBefore) fields.created_before = filter.createdBefore;
  if (filter.labels?.length) fields.label = filter.labels;
  if (filter.ids?.length) fields.id = filter.ids;
  const endedWindowStart =
    filter.endedWithinMs === undefined
      ? undefined
      : new Date(Date.now() - filter.endedWithinMs).toISOString();
  const endedAfter = [filter.endedAfter, endedWindowStart].filter(Boolean).sort().at(-1);
  if (endedAfter) fields.ended_after = endedAfter;
  if (filter.endedBefore) fields.ended_before = filter.endedBefore;
  return fields;
}

/** The service's filter as a query string: a list value as the field repeated. */
export function filterSearch(fields: BulkFilter): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const each of [value].flat()) query.append(name, String(each));
  }
  return query;
}

export function jobListSearch(filter: JobFilter, page: { cursor?: string; limit: number }) {
  const query = filterSearch(filterFields(filter));
  if (filter.sort) query.set('sort', filter.sort);
  if (page.cursor) query.set('cursor', page.cursor);
  query.set('limit', String(page.limit));
  return query;
}

/**
 * Extension: up to `limit` jobs whose id ends with `end` (the short id's digits), or whose name
 * starts with `name`. Null when the service cannot answer it: it has no list, or a list without
 * the `id_suffix` filter (a 400 naming it), or the name is none a job could have.
 */
export async function findJobs(
  by: { end: string } | { name: string },
  limit: number,
): Promise<JobListItem[] | null> {
  const query = new URLSearchParams({ limit: String(limit) });
  if ('end' in by) query.set('id_suffix', by.end);
  else query.set('name', by.name);
  try {
    return await optional(
      async () =>
        (
          await requestOperation(jobOperations.listJobs, successEnvelope(jobListSchema), {
            query: query.toString(),
          })
        ).data.items,
    );
  } catch (error) {
    if (isApiError(error) && error.status === 400) return null;
    throw error;
  }
}

/** Extension: one page of the project's jobs, newest first; null when the service has no list. */
export function listJobs(
  filter: JobFilter,
  page: { cursor?: string; limit: number },
): Promise<JobList | null> {
  return optional(
    async () =>
      (
        await requestOperation(jobOperations.listJobs, successEnvelope(jobListSchema), {
          query: jobListSearch(filter, page),
        })
      ).data,
  );
}
