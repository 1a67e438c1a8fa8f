import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  acceptedBodySchema,
  membersSchema,
  successEnvelope,
  type Role,
  memberOperations,
} from '../../contract';
import { requestOperation } from './client';
import { memberKeys } from './keys';

/** Who may sign in to the project, and with which role (admins only). */
export const memberListQuery = queryOptions({
  queryKey: memberKeys.list(),
  queryFn: async () =>
    (await requestOperation(memberOperations.listMembers, successEnvelope(membersSchema))).data
      .items,
});

/** Adds a member, or changes a member's role (the service refuses to leave no admin: 409). */
export function usePutMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ identity, role }: { identity: string; role: Role }) => {
      await requestOperation(memberOperations.putMember, acceptedBodySchema, {
        params: { identity },
        body: { role },
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.all }),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (identity: string) => {
      await requestOperation(memberOperations.removeMember, acceptedBodySchema, {
        params: { identity },
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.all }),
  });
}
