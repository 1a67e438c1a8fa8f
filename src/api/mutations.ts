import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SubmitJobRequest } from '../../contract';
import type { CancelTarget } from '../lib/bulk-cancel-plan';
import { mapWithConcurrency } from '../lib/concurrency';
import { markCancelRequested, rememberSubmission } from '../lib/history';
import { isApiError } from './client';
import { cancelJob, resubmitJob, submitJob } from './jobs';
import { jobKeys, queueKeys } from './keys';
import { SubmitKeys } from './submit-keys';

/** What changes when a job is submitted or cancelled: lists, arrays, counts, and that job. */
function invalidateAfterChange(queryClient: QueryClient, ids: string[]) {
  void queryClient.invalidateQueries({ queryKey: jobKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: jobKeys.arrays() });
  void queryClient.invalidateQueries({ queryKey: queueKeys.all });
  for (const id of ids) void queryClient.invalidateQueries({ queryKey: jobKeys.detail(id) });
}

/**
 * Job Submit; the browser remembers the job (sensitive values blanked) for "recent jobs". Each
 * attempt carries an Idempotency-Key, the same again when an unanswered one is retried (SubmitKeys).
 */
export function useSubmitJob() {
  const queryClient = useQueryClient();
  const [keys] = useState(() => new SubmitKeys());
  return useMutation({
    mutationFn: (payload: SubmitJobRequest) => submitJob(payload, keys.keyFor(payload)),
    onSettled: (_id, error) => keys.settled(error),
    onSuccess: (id, payload) => {
      rememberSubmission(id, payload);
      invalidateAfterChange(queryClient, []);
      // The jobs it waits for have one more job waiting for them.
      for (const { job_id } of payload.depends_on ?? []) {
        if (job_id !== undefined)
          void queryClient.invalidateQueries({ queryKey: jobKeys.dependenciesOf(job_id) });
      }
    },
  });
}

/** A finished job submitted again by the service, its secrets kept there: the new job's id. */
export function useResubmitJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => resubmitJob(id),
    onSuccess: () => invalidateAfterChange(queryClient, []),
  });
}

/** Cancel Job for one job; the request time is kept so the page can say how long it has taken. */
export function useCancelJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => cancelJob(id),
    onSuccess: (_, id) => {
      markCancelRequested(id);
      invalidateAfterChange(queryClient, [id]);
    },
  });
}

export type CancelOutcome =
  | { id: string; name: string; result: 'accepted' }
  | { id: string; name: string; result: 'refused' | 'failed'; message: string };

/** Cancels at most this many jobs at once: a hundred selected jobs are not a hundred requests in flight. */
export const BULK_CANCEL_CONCURRENCY = 4;

/** Cancel Job for each job (the spec has no bulk operation); one outcome per job, never a throw. */
export function useBulkCancel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobs: CancelTarget[]) =>
      mapWithConcurrency(jobs, BULK_CANCEL_CONCURRENCY, async (job): Promise<CancelOutcome> => {
        try {
          await cancelJob(job.id);
          markCancelRequested(job.id);
          return { id: job.id, name: job.name, result: 'accepted' };
        } catch (error) {
          const refused = isApiError(error) && error.status === 409;
          return {
            id: job.id,
            name: job.name,
            result: refused ? 'refused' : 'failed',
            message: (error as Error).message,
          };
        }
      }),
    onSuccess: (outcomes) =>
      invalidateAfterChange(
        queryClient,
        outcomes.map((outcome) => outcome.id),
      ),
  });
}
