import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  dependenciesAnswerSchema,
  isFinalState,
  jobOperations,
  successEnvelope,
  type DependenciesAnswer,
  type JobRecord,
} from '../../contract';
import { nextPollDelay } from '../lib/polling';
import { useSettings } from '../lib/settings';
import { useCapabilities } from './capabilities';
import { requestOperation } from './client';
import { onJob, optional } from './jobs';
import { jobKeys } from './keys';
import { isPermanent } from './queries';

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
        await requestOperation(
          jobOperations.getJobDependencies,
          successEnvelope(dependenciesAnswerSchema),
          onJob(id),
        )
      ).data,
  );
}

/** Whether a job's dependencies are worth a section: it waits for jobs, or jobs wait for it. */
export const hasDependencies = (answer: DependenciesAnswer) =>
  answer.depends_on.length > 0 || answer.dependents_total > 0;

/** Whether the job still waits for a job it depends on (then not for its schedule_at alone). */
export const waitsForJobs = (answer: DependenciesAnswer) =>
  answer.depends_on.some((edge) => edge.status === 'waiting');

/** Whether another job's change may still change the answer: a job in it has not ended. */
export const awaitsChange = (answer: DependenciesAnswer) =>
  [...answer.depends_on, ...answer.dependents].some((edge) => !isFinalState(edge.state));

/**
 * The job's dependencies: read again whenever the record changes (a state change, a new note),
 * as its attempts are. The other jobs change without this one's record changing (a job waited
 * for by a completed one runs on), so while one of them has not ended it is polled as Job Detail
 * is: every `pollMs`, backing off on errors, paused while the tab is hidden. While the next read
 * is under way, the last answer stays shown.
 */
export function jobDependenciesQuery(job: JobRecord, pollMs: number) {
  return queryOptions({
    queryKey: jobKeys.dependencies(job.id, job.updated_at),
    queryFn: () => getJobDependencies(job.id),
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === job.id ? previous : undefined,
    retry: false,
    refetchInterval: (query) =>
      query.state.data && awaitsChange(query.state.data)
        ? nextPollDelay({
            state: undefined,
            consecutiveErrors: query.state.fetchFailureCount,
            permanentError: isPermanent(query.state.error),
            baseMs: pollMs,
          })
        : false,
  });
}

/** The job's dependencies, only from a service that has them (no request otherwise): null then. */
export function useJobDependencies(job: JobRecord) {
  const offered = useCapabilities().data?.dependencies ?? false;
  const { pollSeconds } = useSettings();
  const query = useQuery({ ...jobDependenciesQuery(job, pollSeconds * 1000), enabled: offered });
  return offered ? (query.data ?? null) : null;
}
