import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  bulkActionSchema,
  bulkActionsSchema,
  bulkCancelDryRunSchema,
  errorBodySchema,
  successEnvelope,
  type BulkAction,
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

/** Once an action ended, the lists and counts it changed are read again. */
export function useRefreshAfterBulk() {
  const queryClient = useQueryClient();
  return (action: BulkAction) => {
    if (action.state === 'running') return;
    void queryClient.invalidateQueries({ queryKey: jobKeys.all });
    void queryClient.invalidateQueries({ queryKey: queueKeys.all });
  };
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
