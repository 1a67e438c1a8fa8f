import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  dependenciesAnswerSchema,
  dependencyStatus,
  successEnvelope,
  type DependenciesAnswer,
  type DependencyEdge,
  type JobRecord,
} from '../../contract';
import { useCapabilities } from './capabilities';
import { apiRequest } from './client';
import { jobPath, optional } from './jobs';
import { jobKeys } from './keys';

// The answer's shape is the contract's (contract/dependencies.ts), read as the service writes it.
export {
  dependenciesAnswerSchema,
  type DependenciesAnswer,
  type DependencyEdge,
} from '../../contract';

/** Extension: what the job waits for and what waits for it; null when the service has no such thing. */
export function getJobDependencies(id: string): Promise<DependenciesAnswer | null> {
  return optional(
    async () =>
      (
        await apiRequest(
          'GET',
          `${jobPath(id)}/dependencies`,
          successEnvelope(dependenciesAnswerSchema),
        )
      ).data,
  );
}

/** Whether a job's dependencies are worth a section: it waits for jobs, or jobs wait for it. */
export const hasDependencies = (answer: DependenciesAnswer) =>
  answer.depends_on.length > 0 || answer.dependents_total > 0;

/**
 * The answer with another job's new state: where this job waits for it, the dependency is judged
 * again as the service would (the contract's dependencyStatus); where it waits for this job, only
 * its state changes (its status is about this job, whose own changes read the answer again).
 * The same answer when that job is not in it or its state is unchanged.
 */
export function withJobState(
  answer: DependenciesAnswer,
  job: Pick<JobRecord, 'id' | 'state'>,
): DependenciesAnswer {
  const names = (edge: DependencyEdge) => edge.job_id === job.id && edge.state !== job.state;
  if (!answer.depends_on.some(names) && !answer.dependents.some(names)) return answer;
  return {
    ...answer,
    depends_on: answer.depends_on.map((edge) =>
      names(edge)
        ? { ...edge, state: job.state, status: dependencyStatus(edge.type, job.state) }
        : edge,
    ),
    dependents: answer.dependents.map((edge) =>
      names(edge) ? { ...edge, state: job.state } : edge,
    ),
  };
}

/**
 * The job's dependencies: read again whenever the record changes (a state change, a new note),
 * as its attempts are; the other jobs' changes reach it from the event stream (live-cache.ts).
 * While the next read is under way, the last answer stays shown.
 */
export function jobDependenciesQuery(job: JobRecord) {
  return queryOptions({
    queryKey: jobKeys.dependencies(job.id, job.updated_at),
    queryFn: () => getJobDependencies(job.id),
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === job.id ? previous : undefined,
    retry: false,
  });
}

/** The job's dependencies, only from a service that has them (no request otherwise): null then. */
export function useJobDependencies(job: JobRecord) {
  const offered = useCapabilities().data?.dependencies ?? false;
  const query = useQuery({ ...jobDependenciesQuery(job), enabled: offered });
  return offered ? (query.data ?? null) : null;
}
