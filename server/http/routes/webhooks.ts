import type { FastifyInstance } from 'fastify';
import {
  createWebhookSchema,
  labelSelectorText,
  updateWebhookSchema,
  type Webhook,
  type WebhookDelivery,
  webhookOperations,
} from '../../../contract';
import { operationRoute } from '../operation-route';
import type { DeliveryRecord, WebhookRecord } from '../../jobs/webhook-records';
import type { Webhooks } from '../../jobs/webhooks';
import { audit } from '../audit';
import { principalOf } from '../auth';
import { parseBodyOrThrow } from '../parse';

const iso = (time: number) => new Date(time).toISOString();

const toWebhook = (webhook: WebhookRecord): Webhook => ({
  id: webhook.id,
  url: webhook.url,
  description: webhook.description,
  states: webhook.states,
  queues: webhook.queues,
  labels: webhook.labels.map(labelSelectorText),
  created_by: webhook.createdBy,
  created_at: iso(webhook.createdAt),
});

const toDelivery = (delivery: DeliveryRecord): WebhookDelivery => ({
  id: delivery.id,
  event_type: delivery.eventType,
  job_id: delivery.jobId,
  state: delivery.state,
  attempts: delivery.attempts,
  response_status: delivery.lastStatus,
  latency_ms: delivery.lastLatencyMs,
  error: delivery.lastError,
  created_at: iso(delivery.createdAt),
  next_attempt_at: delivery.state === 'pending' ? iso(delivery.nextAttemptAt) : null,
  finished_at: delivery.finishedAt === null ? null : iso(delivery.finishedAt),
});

/**
 * What the audit trail says of a webhook: where it goes by host only (a URL's path or query may
 * hold a token) and what fires it; never its secret.
 */
const auditedWebhook = (webhook: WebhookRecord) => ({
  host: new URL(webhook.url).host,
  states: webhook.states,
  queues: webhook.queues,
  labels: webhook.labels.map(labelSelectorText),
});

/** Extension: a project's webhooks, their delivery log, and a test event. */
export function webhookRoutes(app: FastifyInstance, webhooks: Webhooks): void {
  operationRoute(app, webhookOperations.createWebhook, async (request, reply) => {
    const body = parseBodyOrThrow(createWebhookSchema, request.body);
    const { project, actor } = principalOf(request);
    const { webhook, secret } = await webhooks.create(project, actor, {
      url: body.url,
      states: body.states,
      queues: body.queues ?? [],
      labels: body.labels ?? [],
      description: body.description ?? '',
    });
    audit(request, 'webhook.create', webhook.id, auditedWebhook(webhook));
    return reply.code(201).send({ ok: true, data: { ...toWebhook(webhook), secret } });
  });

  operationRoute(app, webhookOperations.listWebhooks, async (request) => {
    const items = await webhooks.list(principalOf(request).project);
    return { ok: true, data: { items: items.map(toWebhook) } };
  });

  operationRoute(app, webhookOperations.getWebhook, async (request) => {
    const webhook = await webhooks.get(principalOf(request).project, request.params.id);
    return { ok: true, data: toWebhook(webhook) };
  });

  operationRoute(app, webhookOperations.updateWebhook, async (request) => {
    const changes = parseBodyOrThrow(updateWebhookSchema, request.body);
    const webhook = await webhooks.update(principalOf(request).project, request.params.id, changes);
    audit(request, 'webhook.update', webhook.id, {
      changed: Object.keys(changes),
      ...auditedWebhook(webhook),
    });
    return { ok: true, data: toWebhook(webhook) };
  });

  operationRoute(app, webhookOperations.deleteWebhook, async (request) => {
    await webhooks.remove(principalOf(request).project, request.params.id);
    audit(request, 'webhook.delete', request.params.id);
    return { ok: true };
  });

  operationRoute(app, webhookOperations.testWebhook, async (request, reply) => {
    const delivery = await webhooks.test(principalOf(request).project, request.params.id);
    audit(request, 'webhook.test', request.params.id, { delivery: delivery.id });
    return reply.code(202).send({ ok: true, data: toDelivery(delivery) });
  });

  operationRoute(app, webhookOperations.webhookDeliveries, async (request) => {
    const items = await webhooks.deliveries(principalOf(request).project, request.params.id);
    return { ok: true, data: { items: items.map(toDelivery) } };
  });
}
