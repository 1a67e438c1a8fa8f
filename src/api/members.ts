import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { acceptedBodySchema, membersSchema, successEnvelope, type Role } from '../../contract';
import { apiRequest } from './client';
import { memberKeys } from './keys';

const memberPath = (identity: string) => `/v1/client/members/${encodeURIComponent(identity)}`;

/** Who may sign in to the project, and with which role (admins only). */
export const memberListQuery = queryOptions({
  queryKey: memberKeys.list(),
  queryFn: async () =>
    (await apiRequest('GET', '/v1/client/members', successEnvelope(membersSchema))).data.items,
});

/** Adds a member, or changes a member's role (the service refuses to leave no admin: 409). */
export function usePutMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ identity, role }: { identity: string; role: Role }) => {
      await apiRequest('PUT', memberPath(identity), acceptedBodySchema, { role });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.all }),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (identity: string) => {
      await apiRequest('DELETE', memberPath(identity), acceptedBodySchema);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.all }),
  });
}
