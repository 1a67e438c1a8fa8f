import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  bulkActionSchema,
  bulkActionsSchema,
  bulkCancelDryRunSchema,
  errorBodySchema,
  successEnvelope,
  type BulkActionKind,
  type BulkFilter,
  bulkActionOperations,
  pathOf,
} from '../../contract';
import { readApiKey } from '../lib/api-key';
import { ApiError, requestOperation } from './client';
import { bulkKeys, jobKeys, queueKeys } from './keys';

const onAction = (id: string) => ({ params: { id } });

/** What cancelling every job the filter matches would do (extension); changes nothing. */
export const bulkCancelPlanQuery = (filter: BulkFilter) =>
  queryOptions({
    queryKey: bulkKeys.plan(filter),
    queryFn: async () =>
      (
        await requestOperation(
          bulkActionOperations.startBulkAction,
          successEnvelope(bulkCancelDryRunSchema),
          {
            body: {
              action: 'cancel',
              filter,
              dry_run: true,
            },
          },
        )
      ).data,
    // A plan is of the jobs as they are now: read again each time the dialog opens.
    gcTime: 0,
    retry: false,
  });

/** A bulk action as it goes, read every second until it ends. */
export const bulkActionQuery = (id: string) =>
  queryOptions({
    queryKey: bulkKeys.action(id),
    queryFn: async () =>
      (
        await requestOperation(
          bulkActionOperations.getBulkAction,
          successEnvelope(bulkActionSchema),
          onAction(id),
        )
      ).data,
    refetchInterval: (query) => (query.state.data?.state === 'running' ? 1000 : false),
  });

/** The project's latest bulk actions, read every 2 s while one of them runs. */
export const bulkActionListQuery = queryOptions({
  queryKey: bulkKeys.list(),
  queryFn: async () =>
    (
      await requestOperation(
        bulkActionOperations.listBulkActions,
        successEnvelope(bulkActionsSchema),
      )
    ).data.items,
  refetchInterval: (query) =>
    query.state.data?.some((action) => action.state === 'running') ? 2000 : false,
});

/** Begins cancelling (or submitting again) every job the filter matches, in the service. */
export function useStartBulkAction(action: BulkActionKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (filter: BulkFilter) =>
      (
        await requestOperation(
          bulkActionOperations.startBulkAction,
          successEnvelope(bulkActionSchema),
          { body: { action, filter } },
        )
      ).data,
    onSuccess: (action) => {
      queryClient.setQueryData(bulkKeys.action(action.id), action);
      void queryClient.invalidateQueries({ queryKey: bulkKeys.list() });
    },
  });
}

export function useStopBulkAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await requestOperation(
          bulkActionOperations.stopBulkAction,
          successEnvelope(bulkActionSchema),
          onAction(id),
        )
      ).data,
    onSuccess: (action) => {
      queryClient.setQueryData(bulkKeys.action(action.id), action);
      void queryClient.invalidateQueries({ queryKey: bulkKeys.list() });
    },
  });
}

/**
 * A bulk action a dialog starts and follows: `start` begins it, `action` is its progress; once it
 * ended, the lists and counts it changed are read again.
 */
export function useBulkActionRun(kind: BulkActionKind) {
  const queryClient = useQueryClient();
  const start = useStartBulkAction(kind);
  const started = start.data?.id;
  const action = useQuery({ ...bulkActionQuery(started ?? ''), enabled: started !== undefined });
  const state = action.data?.state;
  useEffect(() => {
    // Only when it ends: a refresh per progress poll would reload the lists every second.
    if (state === undefined || state === 'running') return;
    void queryClient.invalidateQueries({ queryKey: jobKeys.all });
    void queryClient.invalidateQueries({ queryKey: queueKeys.all });
  }, [state, queryClient]);
  return { start, action };
}

/**
 * Saves the action's per-job results as a CSV file. Fetched with the key (a plain link would go
 * without it when the key was typed in Settings), then handed to the browser as a download.
 */
export async function downloadBulkResults(id: string): Promise<void> {
  const key = readApiKey();
  const response = await fetch(pathOf(bulkActionOperations.bulkActionResults, { id }), {
    headers: key ? { Authorization: `Bearer ${key}` } : {},
  }).catch(() => {
    throw new ApiError(0, 'The service could not be reached (network error).', 'network');
  });
  if (!response.ok) {
    const refusal = errorBodySchema.safeParse(await response.json().catch(() => null));
    throw new ApiError(
      response.status,
      refusal.success ? refusal.data.message : `The service answered ${response.status}.`,
    );
  }
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), {
    href: url,
    download: `bulk-action-${id}.csv`,
  });
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the file after click() returns: the URL outlives it a while.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
