import { useLocalStorage } from '@mantine/hooks';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  acceptedBodySchema,
  savedViewSchema,
  savedViewsSchema,
  successEnvelope,
  type SavedView,
  viewOperations,
} from '../../contract';
import { requestOperation } from './client';
import { viewKeys } from './keys';

/** A view of the jobs table: its name and the query string of its URL. */
export interface TableViewLink {
  name: string;
  search: string;
}

/** The views the project shares (extension); read when the menu is shown. */
export const sharedViewsQuery = queryOptions({
  queryKey: viewKeys.list(),
  queryFn: async (): Promise<SavedView[]> =>
    (await requestOperation(viewOperations.listViews, successEnvelope(savedViewsSchema))).data
      .items,
  retry: false,
});

export function useSaveSharedView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, search }: TableViewLink) =>
      (
        await requestOperation(viewOperations.saveView, successEnvelope(savedViewSchema), {
          params: { name },
          body: { search },
        })
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: viewKeys.all }),
  });
}

export function useDeleteSharedView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      await requestOperation(viewOperations.deleteView, acceptedBodySchema, { params: { name } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: viewKeys.all }),
  });
}

/** Views saved in this browser only: filters and sort, never a secret. */
export function useBrowserViews() {
  const [views, setViews] = useLocalStorage<TableViewLink[]>({
    key: 'jobdeck.savedViews',
    defaultValue: [],
    getInitialValueInEffect: false,
  });
  const byName = (list: TableViewLink[]) => [...list].sort((a, b) => (a.name < b.name ? -1 : 1));
  return {
    views,
    save: (view: TableViewLink) =>
      setViews((shown) => byName([...shown.filter((v) => v.name !== view.name), view])),
    remove: (name: string) => setViews((shown) => shown.filter((v) => v.name !== name)),
  };
}
