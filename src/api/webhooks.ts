import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  acceptedBodySchema,
  createdWebhookSchema,
  successEnvelope,
  webhookDeliveriesSchema,
  webhookDeliverySchema,
  webhooksSchema,
  webhookSchema,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
} from '../../contract';
import { apiRequest } from './client';
import { webhookKeys } from './keys';

const webhookPath = (id: string) => `/v1/client/webhooks/${encodeURIComponent(id)}`;

/** The project's webhooks (extension). */
export const webhookListQuery = queryOptions({
  queryKey: webhookKeys.list(),
  queryFn: async () =>
    (await apiRequest('GET', '/v1/client/webhooks', successEnvelope(webhooksSchema))).data.items,
});

/** A webhook's latest deliveries, read every 2 s while one of them is still to be tried. */
export const webhookDeliveriesQuery = (id: string) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(id),
    queryFn: async () =>
      (
        await apiRequest(
          'GET',
          `${webhookPath(id)}/deliveries`,
          successEnvelope(webhookDeliveriesSchema),
        )
      ).data.items,
    refetchInterval: (query) =>
      query.state.data?.some((delivery) => delivery.state === 'pending') ? 2000 : 10_000,
  });

/** Creates a webhook; the answer holds its secret, which is never shown again. */
export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: CreateWebhookRequest) =>
      (
        await apiRequest(
          'POST',
          '/v1/client/webhooks',
          successEnvelope(createdWebhookSchema),
          request,
        )
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

/** Changes what fires a webhook or where it goes; its secret stays. */
export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: string; changes: UpdateWebhookRequest }) =>
      (await apiRequest('PATCH', webhookPath(id), successEnvelope(webhookSchema), changes)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', webhookPath(id), acceptedBodySchema);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

/** Sends a test event; the delivery log shows how it went. */
export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (await apiRequest('POST', `${webhookPath(id)}/test`, successEnvelope(webhookDeliverySchema)))
        .data,
    onSuccess: (_delivery, id) =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}
