import {
  acceptedBodySchema,
  jobListSchema,
  jobLogsSchema,
  jobRecordSchema,
  jobTransitionsSchema,
  submitJobResultSchema,
  successEnvelope,
  type JobList,
  type JobLogs,
  type JobState,
  type JobRecord,
  type JobTransition,
  type SubmitJobRequest,
} from '../../contract';
import { apiRequest, isApiError } from './client';

const jobPath = (id: string) => `/v1/client/job/${encodeURIComponent(id)}`;

/** Job Submit: resolves with the new job's id. */
export async function submitJob(payload: SubmitJobRequest): Promise<string> {
  const body = await apiRequest(
    'POST',
    '/v1/client/job',
    successEnvelope(submitJobResultSchema),
    payload,
  );
  return body.data.id;
}

/** Job Detail. */
export async function getJob(id: string): Promise<JobRecord> {
  return (await apiRequest('GET', jobPath(id), successEnvelope(jobRecordSchema))).data;
}

/** Cancel Job: resolves once the request is accepted (the job may still be running). */
export async function cancelJob(id: string): Promise<void> {
  await apiRequest('POST', `${jobPath(id)}/cancel`, acceptedBodySchema);
}

/**
 * Extensions of Jobdeck's own service. A service that speaks only the spec answers 404 or 405
 * on these paths for a job that exists: that means "not available", not an error.
 */
async function optional<T>(request: () => Promise<T>): Promise<T | null> {
  try {
    return await request();
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 405)) return null;
    throw error;
  }
}

export function getJobLogs(id: string): Promise<JobLogs | null> {
  return optional(
    async () =>
      (await apiRequest('GET', `${jobPath(id)}/logs`, successEnvelope(jobLogsSchema))).data,
  );
}

export function getJobTransitions(id: string): Promise<JobTransition[] | null> {
  return optional(
    async () =>
      (await apiRequest('GET', `${jobPath(id)}/transitions`, successEnvelope(jobTransitionsSchema)))
        .data.items,
  );
}

/** Extension: the project's jobs, newest first; null when the service has no list. */
export function listJobs(filter: {
  state?: JobState;
  cursor?: string;
  limit?: number;
}): Promise<JobList | null> {
  const query = new URLSearchParams();
  if (filter.state) query.set('state', filter.state);
  if (filter.cursor) query.set('cursor', filter.cursor);
  query.set('limit', String(filter.limit ?? 25));
  return optional(
    async () =>
      (await apiRequest('GET', `/v1/client/jobs?${query}`, successEnvelope(jobListSchema))).data,
  );
}
