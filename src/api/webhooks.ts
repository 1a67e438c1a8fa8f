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
  webhookOperations,
} from '../../contract';
import { requestOperation } from './client';
import { webhookKeys } from './keys';

const onWebhook = (id: string) => ({ params: { id } });

/** The project's webhooks (extension). */
export const webhookListQuery = queryOptions({
  queryKey: webhookKeys.list(),
  queryFn: async () =>
    (await requestOperation(webhookOperations.listWebhooks, successEnvelope(webhooksSchema))).data
      .items,
});

/** A webhook's latest deliveries, read every 2 s while one of them is still to be tried. */
export const webhookDeliveriesQuery = (id: string) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(id),
    queryFn: async () =>
      (
        await requestOperation(
          webhookOperations.webhookDeliveries,
          successEnvelope(webhookDeliveriesSchema),
          onWebhook(id),
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
        await requestOperation(
          webhookOperations.createWebhook,
          successEnvelope(createdWebhookSchema),
          { body: request },
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
      (
        await requestOperation(webhookOperations.updateWebhook, successEnvelope(webhookSchema), {
          ...onWebhook(id),
          body: changes,
        })
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await requestOperation(webhookOperations.deleteWebhook, acceptedBodySchema, onWebhook(id));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

/** Sends a test event; the delivery log shows how it went. */
export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await requestOperation(
          webhookOperations.testWebhook,
          successEnvelope(webhookDeliverySchema),
          onWebhook(id),
        )
      ).data,
    onSuccess: (_delivery, id) =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}
