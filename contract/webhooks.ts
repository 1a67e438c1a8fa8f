import { z } from 'zod';
import { acceptedBodySchema } from './envelope';
import { defineOperations, errors, failure, json, jsonBody, ok } from './operation';
import { jobListItemSchema } from './job';
import { labelSelectorSchema } from './labels';
import { jobStateSchema } from './states';
import { plainText } from './text';

/**
 * Extension: webhooks. A project's webhook is a URL told of its jobs' state changes (the states,
 * queues and labels it names), each request signed as Standard Webhooks sign them
 * (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` and `webhook-signature`.
 */
export const WEBHOOK_LIMITS = {
  perProject: 20,
  urlMaxLength: 2000,
  descriptionMaxLength: 200,
  queuesMax: 20,
  labelsMax: 4,
  /** How many of a webhook's deliveries the log returns, newest first. */
  deliveriesListed: 50,
};

const timestamp = z.iso.datetime({ offset: true });

const URL_MESSAGE = 'must be an http:// or https:// URL, like https://hooks.example.com/jobdeck';

/** The scheme, exactly two slashes, then the host's first character. */
const WRITTEN_HOST = /^https?:\/\/[^/\\]/i;

/**
 * What is wrong with a webhook's URL, or undefined: an absolute http(s) URL whose host is
 * written, without credentials (a password in a URL would be shown back) or a fragment. The
 * relay asks again before each send, of URLs stored before a rule was added.
 */
export function webhookUrlProblem(text: string): string | undefined {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    return URL_MESSAGE;
  }
  // A URL parser reads `http:///hooks`, `http:/hooks` or `http:\\hooks` as the host `hooks`:
  // a host that was never written is refused rather than guessed.
  if (!WRITTEN_HOST.test(text)) {
    return 'must name its host right after the scheme and two slashes, like https://hooks.example.com/jobdeck';
  }
  if (url.username || url.password) {
    return 'must not hold a user name or password: the signature proves the sender';
  }
  if (url.hash) return 'must not have a #fragment';
  return undefined;
}

export const webhookUrlSchema = plainText(
  z
    .string({ error: URL_MESSAGE })
    .max(WEBHOOK_LIMITS.urlMaxLength, `must be at most ${WEBHOOK_LIMITS.urlMaxLength} characters`),
)
  .superRefine((text, context) => {
    const message = webhookUrlProblem(text);
    if (message) context.addIssue({ code: 'custom', message });
  })
  .meta({
    format: 'uri',
    description: 'An absolute http:// or https:// URL, without a user name, password or #fragment',
    examples: ['https://hooks.example.com/jobdeck'],
  });

const distinct = <T>(items: readonly T[]) => new Set(items).size === items.length;

export const createWebhookSchema = z.strictObject(
  {
    url: webhookUrlSchema,
    states: z
      .array(jobStateSchema, { error: 'must be a list of job states, like ["failed"]' })
      .min(1, 'must name at least one job state, like ["failed"]')
      .refine(distinct, 'must not name a state twice')
      .meta({ uniqueItems: true }),
    queues: z
      .array(z.string({ error: 'must be a list of queue names' }), {
        error: 'must be a list of queue names',
      })
      .max(WEBHOOK_LIMITS.queuesMax, `must name at most ${WEBHOOK_LIMITS.queuesMax} queues`)
      .refine(distinct, 'must not name a queue twice')
      .optional()
      .meta({
        description: "Only these queues' jobs (job_queue); every queue when left out",
        uniqueItems: true,
      }),
    labels: z
      .array(labelSelectorSchema)
      .max(WEBHOOK_LIMITS.labelsMax, `must hold at most ${WEBHOOK_LIMITS.labelsMax} selectors`)
      .optional()
      .meta({
        description: 'Only jobs with every one of these labels: key=value, or key for any value',
      }),
    description: plainText(
      z
        .string({ error: 'must be a string' })
        .max(
          WEBHOOK_LIMITS.descriptionMaxLength,
          `must be at most ${WEBHOOK_LIMITS.descriptionMaxLength} characters`,
        ),
    ).optional(),
  },
  {
    error:
      'body must be a JSON object like { "url": "https://hooks.example.com/jobdeck", "states": ["failed"] }',
  },
);
export type CreateWebhookRequest = z.input<typeof createWebhookSchema>;

/** A change of a webhook: any of its fields but the secret; those left out stay. */
export const updateWebhookSchema = createWebhookSchema
  .partial()
  .refine((fields) => Object.keys(fields).length > 0, {
    message:
      'body must change at least one of url, states, queues, labels, description, like { "states": ["failed"] }',
  })
  .meta({ minProperties: 1 });
export type UpdateWebhookRequest = z.input<typeof updateWebhookSchema>;

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  states: z.array(jobStateSchema).meta({ description: 'The states whose entry fires it' }),
  queues: z.array(z.string()).meta({ description: 'Empty: every queue' }),
  labels: z.array(z.string()).meta({ description: 'key=value or key; empty: any job' }),
  created_by: z.string().meta({ description: 'The id of the API key that created it' }),
  created_at: timestamp,
});
export type Webhook = z.infer<typeof webhookSchema>;

export const createdWebhookSchema = webhookSchema.extend({
  secret: z.string().meta({
    description:
      'The signing secret (whsec_…), shown this once: verify `webhook-signature` with it',
  }),
});
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const webhooksSchema = z.object({ items: z.array(webhookSchema) });

export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;

export const webhookDeliverySchema = z.object({
  id: z.string().meta({ description: 'Also its `webhook-id` header, the same on every attempt' }),
  event_type: z.string().meta({
    description:
      "job.<state>, webhook.test, or webhook.skipped (never sent: its error counts the events older than the service's replay bound that were not sent)",
  }),
  job_id: z.string().nullable(),
  state: z.enum(DELIVERY_STATES).meta({
    description: 'pending: to be tried (again); delivered: a 2xx came back; failed: given up',
  }),
  attempts: z.number().int(),
  response_status: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'The last attempt’s HTTP status; null when none came back' }),
  latency_ms: z.number().int().nullable().meta({ description: 'The last attempt’s' }),
  error: z.string().nullable().meta({ description: 'Why the last attempt failed' }),
  created_at: timestamp,
  next_attempt_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesSchema = z.object({ items: z.array(webhookDeliverySchema) });

/** The body of every request a webhook receives. */
export const webhookEventSchema = z.object({
  type: z.string().meta({ description: 'job.<the state entered>, or webhook.test' }),
  timestamp: timestamp.meta({ description: 'When it happened' }),
  data: z.union([
    z.object({
      job: jobListItemSchema,
      from_state: jobStateSchema.nullable(),
      to_state: jobStateSchema,
      note: z.string().nullable(),
    }),
    z.object({ webhook_id: z.string(), message: z.string() }),
  ]),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

const webhook = webhookSchema.meta({ id: 'Webhook' });
const oneWebhook = {
  params: z.object({ id: z.string().meta({ description: 'The webhook’s id' }) }),
} as const;
const noWebhook = failure('No such webhook in this API key’s project');
const refusedWebhook = failure('A bad body, a queue not in the project, or a host not allowed');

/** Every webhook operation is an admin's: a URL may hold a token. */
export const webhookOperations = defineOperations({
  createWebhook: {
    id: 'createWebhook',
    method: 'post',
    path: '/v1/client/webhooks',
    role: 'admin',
    summary: `Tell a URL of the project's jobs' state changes, signed (at most ${WEBHOOK_LIMITS.perProject} per project; extension)`,
    body: jsonBody(createWebhookSchema),
    answers: {
      201: ok(
        createdWebhookSchema.meta({ id: 'CreatedWebhook' }),
        'Created: its secret is in this answer only',
      ),
      400: refusedWebhook,
      ...errors(401, 429),
      409: failure(`The project already has ${WEBHOOK_LIMITS.perProject} webhooks`),
    },
  },
  listWebhooks: {
    id: 'listWebhooks',
    method: 'get',
    path: '/v1/client/webhooks',
    role: 'admin',
    summary: "The project's webhooks, oldest first (extension)",
    answers: { 200: ok(webhooksSchema, 'Oldest first'), ...errors(401, 429) },
  },
  getWebhook: {
    ...oneWebhook,
    id: 'getWebhook',
    method: 'get',
    path: '/v1/client/webhooks/{id}',
    role: 'admin',
    summary: 'One webhook (extension)',
    answers: { 200: ok(webhook, 'The webhook'), ...errors(401, 429), 404: noWebhook },
  },
  updateWebhook: {
    ...oneWebhook,
    id: 'updateWebhook',
    method: 'patch',
    path: '/v1/client/webhooks/{id}',
    role: 'admin',
    summary:
      'Change what fires a webhook or where it goes; its secret stays, deliveries not yet sent go to the new URL (extension)',
    body: jsonBody(updateWebhookSchema),
    answers: {
      200: ok(webhook, 'As it is now'),
      400: refusedWebhook,
      ...errors(401, 429),
      404: noWebhook,
    },
  },
  deleteWebhook: {
    ...oneWebhook,
    id: 'deleteWebhook',
    method: 'delete',
    path: '/v1/client/webhooks/{id}',
    role: 'admin',
    summary: 'Delete a webhook and its delivery log; nothing more is sent (extension)',
    answers: { 200: json(acceptedBodySchema, 'Deleted'), ...errors(401, 429), 404: noWebhook },
  },
  testWebhook: {
    ...oneWebhook,
    id: 'testWebhook',
    method: 'post',
    path: '/v1/client/webhooks/{id}/test',
    role: 'admin',
    summary: 'Send a webhook.test event, signed like every other (extension)',
    answers: {
      202: ok(
        webhookDeliverySchema.meta({ id: 'WebhookDelivery' }),
        'Queued: follow it in the delivery log',
      ),
      ...errors(401, 429),
      404: noWebhook,
    },
  },
  webhookDeliveries: {
    ...oneWebhook,
    id: 'webhookDeliveries',
    method: 'get',
    path: '/v1/client/webhooks/{id}/deliveries',
    role: 'admin',
    summary: `The webhook's latest ${WEBHOOK_LIMITS.deliveriesListed} deliveries, newest first: state, attempts, status, latency (extension)`,
    answers: {
      200: ok(webhookDeliveriesSchema, 'Newest first'),
      ...errors(401, 429),
      404: noWebhook,
    },
  },
});
