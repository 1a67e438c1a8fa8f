import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  isFinalState,
  jobLogsSchema,
  jobStateSchema,
  successEnvelope,
  type JobRecord,
  type JobState,
} from '../../contract';
import { useCapabilities } from './capabilities';
import { apiRequest } from './client';
import { optional } from './jobs';
import { jobKeys } from './keys';
import { mergeLogs } from './logs';

const timestamp = z.iso.datetime({ offset: true });

/**
 * A retry strategy as the service describes it (a job's or a definition's, defaults filled in).
 * Read leniently: a reason or an action this console does not know yet is shown as it is.
 */
export const declaredRetrySchema = z.object({
  attempts: z.number().int(),
  backoff: z
    .object({
      initial_seconds: z.number().optional(),
      factor: z.number().optional(),
      max_seconds: z.number().optional(),
      jitter: z.number().optional(),
    })
    .optional(),
  on_exit: z
    .array(
      z.object({
        exit_codes: z.array(z.union([z.number().int(), z.string()])).optional(),
        reason: z.string().optional(),
        status: z.string().optional(),
        action: z.string(),
      }),
    )
    .optional(),
});
export type DeclaredRetry = z.infer<typeof declaredRetrySchema>;

/** One attempt that ended: how, where, and whether another followed. */
export const attemptSchema = z.object({
  attempt: z.number().int(),
  state: jobStateSchema,
  exit_code: z.number().int().nullable(),
  /** timeout, error, node_lost, oom_killed, exit, completed, cancelled. */
  reason: z.string().nullable(),
  note: z.string().nullable(),
  node: z.string().nullable(),
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  retried: z.boolean(),
});
export type Attempt = z.infer<typeof attemptSchema>;

/** Extension (`GET /v1/client/job/{job_id}/attempts`): the attempts of a job. */
export const attemptsAnswerSchema = z.object({
  /** The attempt the job is on now (1-based); the last one once it is final. */
  attempt: z.number().int(),
  /** From its strategy; 1 when it has none. */
  attempts_max: z.number().int(),
  retry: declaredRetrySchema.nullable(),
  /** Set while the job waits (runnable) for its backoff before the next attempt. */
  next_attempt_at: timestamp.nullable(),
  /** Attempts that ended, oldest first: the current one is not here until it ends. */
  items: z.array(attemptSchema),
});
export type AttemptsAnswer = z.infer<typeof attemptsAnswerSchema>;

/**
 * The attempt the job is on: past the last one that ended while it is not final (it may be
 * waiting for that one to start), the last one once it is.
 */
export function currentAttempt(answer: AttemptsAnswer, state: JobState): number {
  const lastEnded = answer.items.at(-1)?.attempt ?? 0;
  return Math.max(answer.attempt, isFinalState(state) ? lastEnded : lastEnded + 1);
}

const jobPath = (id: string) => `/v1/client/job/${encodeURIComponent(id)}`;

/** Extension: the job's attempts; null when the service does not retry jobs. */
export function getJobAttempts(id: string): Promise<AttemptsAnswer | null> {
  return optional(
    async () =>
      (await apiRequest('GET', `${jobPath(id)}/attempts`, successEnvelope(attemptsAnswerSchema)))
        .data,
  );
}

/** Extension: what an earlier attempt printed (its last 64 KiB); null when none was kept. */
export function getAttemptLogs(id: string, attempt: number) {
  return optional(
    async () =>
      (
        await apiRequest(
          'GET',
          `${jobPath(id)}/attempts/${attempt}/logs`,
          successEnvelope(jobLogsSchema),
        )
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
