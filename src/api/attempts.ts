import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  attemptsAnswerSchema,
  isFinalState,
  jobLogsSchema,
  jobOperations,
  successEnvelope,
  type AttemptsAnswer,
  type JobRecord,
  type JobState,
} from '../../contract';
import { useCapabilities } from './capabilities';
import { requestOperation } from './client';
import { onJob, optional } from './jobs';
import { jobKeys } from './keys';
import { mergeLogs } from './logs';

// The answer's shape is the contract's (contract/retry.ts), read as the service writes it.
export { attemptsAnswerSchema, type Attempt, type AttemptsAnswer } from '../../contract';

/**
 * The attempt the job is on: past the last one that ended while it is not final (it may be
 * waiting for that one to start), the last one once it is.
 */
export function currentAttempt(answer: AttemptsAnswer, state: JobState): number {
  const lastEnded = answer.items.at(-1)?.attempt ?? 0;
  return Math.max(answer.attempt, isFinalState(state) ? lastEnded : lastEnded + 1);
}

/** Extension: the job's attempts; null when the service does not retry jobs. */
export function getJobAttempts(id: string): Promise<AttemptsAnswer | null> {
  return optional(
    async () =>
      (
        await requestOperation(
          jobOperations.getJobAttempts,
          successEnvelope(attemptsAnswerSchema),
          onJob(id),
        )
      ).data,
  );
}

/** Extension: what an earlier attempt printed (its last 64 KiB); null when none was kept. */
export function getAttemptLogs(id: string, attempt: number) {
  return optional(
    async () =>
      (
        await requestOperation(jobOperations.getJobAttemptLogs, successEnvelope(jobLogsSchema), {
          params: { job_id: id, attempt: String(attempt) },
        })
      ).data,
  );
}

/**
 * The job's attempts: read again whenever the record changes (a state change, a new note), as
 * its transitions are. The event stream and the polls patch the record, which moves the key. While
 * the next read is under way, the last answer stays shown.
 */
export function jobAttemptsQuery(job: JobRecord) {
  return queryOptions({
    queryKey: jobKeys.attempts(job.id, job.updated_at),
    queryFn: () => getJobAttempts(job.id),
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === job.id ? previous : undefined,
    retry: false,
  });
}

/**
 * The job's attempts, only from a service that has them (no request otherwise): `offered` false
 * and no data then.
 */
export function useJobAttempts(job: JobRecord) {
  const capabilities = useCapabilities();
  const offered = capabilities.data?.attempts ?? false;
  const query = useQuery({ ...jobAttemptsQuery(job), enabled: offered });
  return { offered, query, attempts: offered ? (query.data ?? null) : null };
}

/** An ended attempt's output, as kept when it ended: read once. */
export function attemptLogsQuery(id: string, attempt: number) {
  return queryOptions({
    queryKey: jobKeys.attemptLogs(id, attempt),
    queryFn: async () => {
      const page = await getAttemptLogs(id, attempt);
      return page === null ? null : mergeLogs(undefined, page);
    },
    staleTime: Infinity,
    structuralSharing: false,
    retry: false,
  });
}

export const useAttemptLogs = (id: string, attempt: number) =>
  useQuery(attemptLogsQuery(id, attempt));
