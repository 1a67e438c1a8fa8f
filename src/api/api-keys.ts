import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  acceptedBodySchema,
  apiKeysSchema,
  createdApiKeySchema,
  successEnvelope,
  type CreateApiKeyRequest,
  keyOperations,
} from '../../contract';
import { requestOperation } from './client';
import { apiKeyKeys } from './keys';

/** The project's API keys, newest first (admins only; never the keys themselves). */
export const apiKeyListQuery = queryOptions({
  queryKey: apiKeyKeys.list(),
  queryFn: async () =>
    (await requestOperation(keyOperations.listKeys, successEnvelope(apiKeysSchema))).data.items,
});

/** Creates a key; the answer holds the key itself, which is never shown again. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: CreateApiKeyRequest) =>
      (
        await requestOperation(keyOperations.createKey, successEnvelope(createdApiKeySchema), {
          body: request,
        })
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

/** Revokes a key: every request made with it is refused from now on. */
export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await requestOperation(keyOperations.revokeKey, acceptedBodySchema, { params: { id } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
