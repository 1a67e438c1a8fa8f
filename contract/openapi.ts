import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { acceptedBodySchema, errorBodySchema, successEnvelope } from './envelope';
import { JOB_EVENT, eventsQuerySchema, jobEventSchema, lastEventIdSchema } from './events';
import { auditPageSchema, auditQuerySchema } from './audit';
import { definitionListSchema } from './definitions';
import { pauseRequestSchema } from './pause';
import { scheduleSchema, schedulesAnswerSchema } from './schedules';
import { whoAmISchema } from './identity';
import { roleFor } from './roles';
import { OPERATIONS } from './operations';
import type { Operation } from './operation';
import { PATH_SEGMENT_MAX_LENGTH } from './limits';
import {
  MEMBER_LIMITS,
  memberPathSchema,
  memberSchema,
  membersSchema,
  putMemberSchema,
} from './members';
import { sessionSchema, signInSchema, signOutSchema } from './auth';
import { KEY_LIMITS, apiKeysSchema, createApiKeySchema, createdApiKeySchema } from './keys';
import { queueListSchema, queueMaxRunningSchema, queueSummarySchema } from './queues';
import {
  VIEW_LIMITS,
  saveViewSchema,
  savedViewSchema,
  savedViewsSchema,
  viewPathSchema,
} from './views';
import { trendsQuerySchema, trendsSchema } from './trends';
import {
  BULK_LIMITS,
  BULK_RESULT_COLUMNS,
  bulkActionRequestSchema,
  bulkActionSchema,
  bulkActionsSchema,
  bulkDryRunSchema,
} from './bulk-actions';
import {
  WEBHOOK_LIMITS,
  createWebhookSchema,
  createdWebhookSchema,
  updateWebhookSchema,
  webhookDeliveriesSchema,
  webhookDeliverySchema,
  webhookEventSchema,
  webhookSchema,
  webhooksSchema,
} from './webhooks';

/** The OpenAPI 3.1 document, generated from the same schemas the console and service use. */
export function buildOpenApiDocument() {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
  });
  // zod's own metadata names the components; no prototype patching needed.
  const error = errorBodySchema.meta({ id: 'Error' });
  const json = (schema: z.ZodType, description: string) => ({
    description,
    content: { 'application/json': { schema } },
  });
  const errors = {
    400: json(error, 'Bad body or reference; the message names the field and the reason'),
    401: json(error, 'Missing, unknown or revoked API key'),
    404: json(error, 'No such job in this API key’s project'),
    429: json(error, 'Rate limit; see Retry-After'),
  };
  const security = [{ [bearer.name]: [] }];
  for (const operation of OPERATIONS) registerOperation(registry, operation, security);
  registry.registerPath({
    method: 'get',
    path: '/v1/client/queues',
    operationId: 'listQueues',
    summary: "The project's queues with their jobs counted by state (extension)",
    security,
    responses: {
      200: json(successEnvelope(queueListSchema), 'Queues, highest priority first'),
      401: errors[401],
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/client/audit',
    operationId: 'listAuditEvents',
    summary:
      "The project's audit trail, newest first: who submitted, cancelled or changed what, when and from where (extension)",
    security,
    request: { query: auditQuerySchema },
    responses: {
      200: json(successEnvelope(auditPageSchema.meta({ id: 'AuditPage' })), 'Newest first'),
      400: errors[400],
      401: errors[401],
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/client/trends',
    operationId: 'queueTrends',
    summary:
      "A queue's jobs ended per hour (24h) or day (30d) by outcome, with the median and 95th percentile of their waiting and run times (extension)",
    security,
    request: { query: trendsQuerySchema },
    responses: {
      200: json(successEnvelope(trendsSchema.meta({ id: 'Trends' })), 'Oldest bucket first'),
      400: errors[400],
      401: errors[401],
      404: json(error, 'No such queue in this API key’s project'),
      429: errors[429],
    },
  });
  const queueSummary = queueSummarySchema.meta({ id: 'QueueSummary' });
  for (const [action, operationId, summary, body] of [
    [
      'pause',
      'pauseQueue',
      'Pause a queue on every instance: it accepts jobs and starts none until resumed (extension)',
      pauseRequestSchema,
    ],
    ['resume', 'resumeQueue', 'Resume a paused queue: its waiting jobs start again (extension)'],
    [
      'max-running',
      'setQueueMaxRunning',
      "Change how many of a queue's jobs hold a slot at once, up to its max_running_ceiling; null: as configured (extension)",
      queueMaxRunningSchema,
    ],
  ] as const) {
    registry.registerPath({
      method: 'post',
      path: `/v1/client/queues/{queue}/${action}`,
      operationId,
      summary,
      security,
      request: {
        params: z.object({ queue: z.string().meta({ description: '<project>::<queue>' }) }),
        ...(body && {
          body: {
            required: action !== 'pause',
            content: { 'application/json': { schema: body } },
          },
        }),
      },
      responses: {
        200: json(successEnvelope(queueSummary), 'The queue as it is now'),
        400: errors[400],
        401: errors[401],
        404: json(error, 'No such queue in this API key’s project'),
        429: errors[429],
      },
    });
  }
  registry.registerPath({
    method: 'get',
    path: '/v1/client/schedules',
    operationId: 'listSchedules',
    summary:
      "The project's recurring schedules with their next firings and recent runs (extension)",
    security,
    responses: {
      200: json(successEnvelope(schedulesAnswerSchema), 'Schedules by name'),
      401: errors[401],
      429: errors[429],
    },
  });
  const schedule = scheduleSchema.meta({ id: 'Schedule' });
  for (const [action, summary] of [
    ['pause', 'Pause a schedule: it fires no more until resumed (extension)'],
    ['resume', 'Resume a paused schedule from its next firing on (extension)'],
  ] as const) {
    registry.registerPath({
      method: 'post',
      path: `/v1/client/schedules/{name}/${action}`,
      operationId: `${action}Schedule`,
      summary,
      security,
      request: {
        params: z.object({ name: z.string() }),
        ...(action === 'pause' && {
          body: {
            required: false,
            content: { 'application/json': { schema: pauseRequestSchema } },
          },
        }),
      },
      responses: {
        200: json(successEnvelope(schedule), 'The schedule as it is now'),
        400: errors[400],
        401: errors[401],
        404: json(error, 'No such schedule in this API key’s project'),
        429: errors[429],
      },
    });
  }
  registry.registerPath({
    method: 'get',
    path: '/v1/client/views',
    operationId: 'listViews',
    summary: "The jobs table's views the project shares, by name (extension)",
    security,
    responses: {
      200: json(successEnvelope(savedViewsSchema), 'Views by name'),
      401: errors[401],
      429: errors[429],
    },
  });
  const viewName = { params: viewPathSchema };
  registry.registerPath({
    method: 'put',
    path: '/v1/client/views/{name}',
    operationId: 'saveView',
    summary: `Save (or replace) a view of the jobs table for the project, at most ${VIEW_LIMITS.perProject} (extension)`,
    security,
    request: {
      ...viewName,
      body: { required: true, content: { 'application/json': { schema: saveViewSchema } } },
    },
    responses: {
      200: json(successEnvelope(savedViewSchema.meta({ id: 'SavedView' })), 'The view as saved'),
      400: errors[400],
      401: errors[401],
      409: json(error, `The project already shares ${VIEW_LIMITS.perProject} views`),
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/v1/client/views/{name}',
    operationId: 'deleteView',
    summary: 'Delete a view the project shares (extension)',
    security,
    request: viewName,
    responses: {
      200: json(acceptedBodySchema, 'Deleted'),
      400: errors[400],
      401: errors[401],
      404: json(error, 'No such view in this API key’s project'),
      429: errors[429],
    },
  });
  const bulkAction = successEnvelope(bulkActionSchema.meta({ id: 'BulkAction' }));
  const bulkId = {
    params: z.object({ id: z.string().meta({ description: 'The bulk action’s id' }) }),
  };
  const noBulkAction = json(error, 'No such bulk action in this API key’s project');
  registry.registerPath({
    method: 'post',
    path: '/v1/client/bulk-actions',
    operationId: 'startBulkAction',
    summary: `Cancel every job a filter matches, up to ${BULK_LIMITS.maxJobs}: a dry run first, then in the service, in batches (extension)`,
    security,
    request: {
      body: {
        required: true,
        content: { 'application/json': { schema: bulkActionRequestSchema } },
      },
    },
    responses: {
      200: json(successEnvelope(bulkDryRunSchema), 'A dry run: what it would do, nothing done'),
      202: json(bulkAction, 'Begun: follow it at /v1/client/bulk-actions/{id}'),
      400: json(
        error,
        `A bad body, or a filter matching no job or more than ${BULK_LIMITS.maxJobs}`,
      ),
      401: errors[401],
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/client/bulk-actions',
    operationId: 'listBulkActions',
    summary: `The project's latest ${BULK_LIMITS.listed} bulk actions, newest first (extension)`,
    security,
    responses: {
      200: json(successEnvelope(bulkActionsSchema), 'Newest first'),
      401: errors[401],
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/client/bulk-actions/{id}',
    operationId: 'getBulkAction',
    summary: 'A bulk action and how far it went (extension)',
    security,
    request: bulkId,
    responses: {
      200: json(bulkAction, 'As it is now'),
      401: errors[401],
      404: noBulkAction,
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/v1/client/bulk-actions/{id}/stop',
    operationId: 'stopBulkAction',
    summary: 'Stop a running bulk action within ten cancels (extension)',
    security,
    request: bulkId,
    responses: {
      200: json(bulkAction, 'Stopped'),
      401: errors[401],
      404: noBulkAction,
      409: json(error, 'It is not running'),
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/client/bulk-actions/{id}/results',
    operationId: 'bulkActionResults',
    summary: 'What the bulk action did to each job it reached, as a CSV file (extension)',
    security,
    request: bulkId,
    responses: {
      200: {
        description: `One row per job, newest first; columns ${BULK_RESULT_COLUMNS.join(', ')}`,
        content: { 'text/csv': { schema: z.string() } },
      },
      401: errors[401],
      404: noBulkAction,
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/client/whoami',
    operationId: 'whoAmI',
    summary: "The key's project and the service's version (extension)",
    security,
    responses: {
      200: json(successEnvelope(whoAmISchema.meta({ id: 'WhoAmI' })), 'Whom the key acts for'),
      401: errors[401],
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/client/definitions',
    operationId: 'listDefinitions',
    summary:
      "The project's job definitions, each version with its command and defaults (extension)",
    security,
    responses: {
      200: json(
        successEnvelope(definitionListSchema.meta({ id: 'DefinitionList' })),
        'Definitions by name, then version',
      ),
      401: errors[401],
      429: errors[429],
    },
  });
  // Nothing JSON refers to the event's data, so its schema is a component of its own.
  const eventSchema = z.toJSONSchema(jobEventSchema, { io: 'output' });
  delete eventSchema.$schema; // the document's own dialect applies
  registry.registerComponent(
    'schemas',
    'JobEvent',
    eventSchema as Parameters<typeof registry.registerComponent<'schemas'>>[2],
  );
  registry.registerPath({
    method: 'get',
    path: '/v1/client/events',
    operationId: 'streamEvents',
    summary: "Server-sent events of the project's state changes (extension)",
    description: `One \`${JOB_EVENT}\` event per state change: \`id\` is an opaque token for the change's position (valid for this project only), \`data\` a JobEvent (the job as a list row after the change). Resume with the \`Last-Event-ID\` header (or \`since\`; the header wins). The stream opens with \`retry:\` and, when it starts from now, a lone \`id:\` line with the position to resume from; a comment line is a heartbeat. A few streams per API key at once; more are a 429.`,
    security,
    request: {
      query: eventsQuerySchema,
      headers: z.object({ 'last-event-id': lastEventIdSchema.optional() }),
    },
    responses: {
      200: {
        description:
          "An endless text/event-stream; each event's data is a JobEvent (#/components/schemas/JobEvent)",
        content: {
          'text/event-stream': {
            schema: z.string().meta({
              description: `Frames of \`id: <seq>\\nevent: ${JOB_EVENT}\\ndata: <JobEvent as JSON>\\n\\n\``,
              example: `id: 42\nevent: ${JOB_EVENT}\ndata: {"id":"…","state":"running",…}\n\n`,
            }),
          },
        },
      },
      400: errors[400],
      401: errors[401],
      429: json(error, 'Rate limit, or too many event streams open for this API key'),
    },
  });

  const webhook = successEnvelope(webhookSchema.meta({ id: 'Webhook' }));
  const webhookId = {
    params: z.object({ id: z.string().meta({ description: 'The webhook’s id' }) }),
  };
  const noWebhook = json(error, 'No such webhook in this API key’s project');
  registry.registerPath({
    method: 'post',
    path: '/v1/client/webhooks',
    operationId: 'createWebhook',
    summary: `Tell a URL of the project's jobs' state changes, signed (at most ${WEBHOOK_LIMITS.perProject} per project; extension)`,
    security,
    request: {
      body: { required: true, content: { 'application/json': { schema: createWebhookSchema } } },
    },
    responses: {
      201: json(
        successEnvelope(createdWebhookSchema.meta({ id: 'CreatedWebhook' })),
        'Created: its secret is in this answer only',
      ),
      400: json(error, 'A bad body, a queue not in the project, or a host not allowed'),
      401: errors[401],
      409: json(error, `The project already has ${WEBHOOK_LIMITS.perProject} webhooks`),
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/client/webhooks',
    operationId: 'listWebhooks',
    summary: "The project's webhooks, oldest first (extension)",
    security,
    responses: {
      200: json(successEnvelope(webhooksSchema), 'Oldest first'),
      401: errors[401],
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/client/webhooks/{id}',
    operationId: 'getWebhook',
    summary: 'One webhook (extension)',
    security,
    request: webhookId,
    responses: {
      200: json(webhook, 'The webhook'),
      401: errors[401],
      404: noWebhook,
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'patch',
    path: '/v1/client/webhooks/{id}',
    operationId: 'updateWebhook',
    summary:
      'Change what fires a webhook or where it goes; its secret stays, deliveries not yet sent go to the new URL (extension)',
    security,
    request: {
      ...webhookId,
      body: { required: true, content: { 'application/json': { schema: updateWebhookSchema } } },
    },
    responses: {
      200: json(webhook, 'As it is now'),
      400: json(error, 'A bad body, a queue not in the project, or a host not allowed'),
      401: errors[401],
      404: noWebhook,
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/v1/client/webhooks/{id}',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook and its delivery log; nothing more is sent (extension)',
    security,
    request: webhookId,
    responses: {
      200: json(acceptedBodySchema, 'Deleted'),
      401: errors[401],
      404: noWebhook,
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/v1/client/webhooks/{id}/test',
    operationId: 'testWebhook',
    summary: 'Send a webhook.test event, signed like every other (extension)',
    security,
    request: webhookId,
    responses: {
      202: json(
        successEnvelope(webhookDeliverySchema.meta({ id: 'WebhookDelivery' })),
        'Queued: follow it in the delivery log',
      ),
      401: errors[401],
      404: noWebhook,
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/client/webhooks/{id}/deliveries',
    operationId: 'webhookDeliveries',
    summary: `The webhook's latest ${WEBHOOK_LIMITS.deliveriesListed} deliveries, newest first: state, attempts, status, latency (extension)`,
    security,
    request: webhookId,
    responses: {
      200: json(successEnvelope(webhookDeliveriesSchema), 'Newest first'),
      401: errors[401],
      404: noWebhook,
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/client/keys',
    operationId: 'listKeys',
    summary: "The project's API keys, newest first, never the keys themselves (extension)",
    security,
    responses: {
      200: json(successEnvelope(apiKeysSchema), 'Keys with role, expiry and last use'),
      401: errors[401],
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/v1/client/keys',
    operationId: 'createKey',
    summary: 'Create an API key of this project with a role and an optional expiry (extension)',
    description: 'The key itself is in this answer only; only its hash is stored.',
    security,
    request: {
      body: { required: true, content: { 'application/json': { schema: createApiKeySchema } } },
    },
    responses: {
      201: json(successEnvelope(createdApiKeySchema), 'The key, shown this once'),
      400: errors[400],
      401: errors[401],
      409: json(error, `The project already has ${KEY_LIMITS.activePerProject} active keys`),
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/v1/client/keys/{id}',
    operationId: 'revokeKey',
    summary: 'Revoke an API key of this project at once (revoking twice is fine) (extension)',
    security,
    request: { params: z.object({ id: z.string().meta({ description: 'The key’s id' }) }) },
    responses: {
      200: json(acceptedBodySchema, 'Revoked'),
      401: errors[401],
      404: json(error, 'No such key in this API key’s project'),
      429: errors[429],
    },
  });
  const memberIdentity = { params: memberPathSchema };
  const member = successEnvelope(memberSchema);
  const lastAdmin = json(error, 'The project would be left without an admin member');
  registry.registerPath({
    method: 'get',
    path: '/v1/client/members',
    operationId: 'listMembers',
    summary: 'Who signs in to this project, with which role and when they last did (extension)',
    security,
    responses: {
      200: json(successEnvelope(membersSchema), 'Members by identity'),
      401: errors[401],
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'put',
    path: '/v1/client/members/{identity}',
    operationId: 'putMember',
    summary: `Add a member or change its role, at most ${MEMBER_LIMITS.perProject} a project (extension)`,
    security,
    request: {
      ...memberIdentity,
      body: { required: true, content: { 'application/json': { schema: putMemberSchema } } },
    },
    responses: {
      200: json(member, 'Its role changed'),
      201: json(member, 'Added'),
      400: errors[400],
      401: errors[401],
      409: lastAdmin,
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/v1/client/members/{identity}',
    operationId: 'removeMember',
    summary: 'Remove a member from this project (extension)',
    security,
    request: memberIdentity,
    responses: {
      200: json(acceptedBodySchema, 'Removed'),
      400: errors[400],
      401: errors[401],
      404: json(error, 'Not a member of this project'),
      409: lastAdmin,
      429: errors[429],
    },
  });
  const session = successEnvelope(sessionSchema.meta({ id: 'Session' }));
  registry.registerPath({
    method: 'get',
    path: '/v1/auth/session',
    operationId: 'getSession',
    summary:
      "The console's sign-in: its mode and methods, and the signed-in user if any (extension)",
    description: 'Reads the session cookie; takes no API key.',
    security: [],
    responses: { 200: json(session, 'The session, or user: null') },
  });
  registry.registerPath({
    method: 'post',
    path: '/v1/auth/sign-in',
    operationId: 'signIn',
    summary: 'Sign in to the console as a local user (extension)',
    description:
      'Sets an HttpOnly, SameSite=Strict session cookie (Secure, __Host- prefixed, over https) and ends any session the browser held. A wrong password and an unknown e-mail get the same answer.',
    security: [],
    request: {
      body: { required: true, content: { 'application/json': { schema: signInSchema } } },
    },
    responses: {
      200: json(session, 'Signed in'),
      400: errors[400],
      401: json(error, 'email or password: not recognised'),
      429: json(
        error,
        'Too many failed sign-ins for the address or from this client; see Retry-After',
      ),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/v1/auth/sign-out',
    operationId: 'signOut',
    summary: 'End this session, or every session of the user (extension)',
    description: "Needs the session's X-CSRF-Token.",
    security: [],
    request: {
      body: { required: false, content: { 'application/json': { schema: signOutSchema } } },
    },
    responses: {
      200: json(acceptedBodySchema, 'Signed out (also when no session was held)'),
      400: errors[400],
      403: json(error, 'X-CSRF-Token missing or not this session’s'),
    },
  });
  // Reached only from `webhooks`, which generators do not follow: a component of its own.
  const webhookEvent = z.toJSONSchema(webhookEventSchema, { io: 'output' });
  delete webhookEvent.$schema; // the document's own dialect applies
  registry.registerComponent(
    'schemas',
    'WebhookEvent',
    webhookEvent as Parameters<typeof registry.registerComponent<'schemas'>>[2],
  );
  registry.registerWebhook({
    method: 'post',
    path: 'jobEvent',
    operationId: 'jobEvent',
    // The receiver checks webhook-signature, not a credential of its own.
    security: [],
    summary:
      'What a webhook receives: a POST of this JSON with webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body">)',
    request: {
      body: {
        required: true,
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/WebhookEvent' } },
        },
      },
    },
    responses: { 200: { description: 'Any 2xx delivers it; anything else is retried' } },
  });

  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Jobdeck job client API',
      version: '1',
      description: 'Submit, inspect and cancel containerized jobs.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // Relative: the service that serves this document, wherever it is reached (a proxy's name,
    // another port); its paths already start with /v1.
    servers: [{ url: '/', description: 'The service that serves this document' }],
  });
  documentRoles(document.paths ?? {});
  documentPathLimit(document.paths ?? {});
  return document;
}

/** One operation of the table as OpenAPI has it; the sign-in's take no key. */
function registerOperation(
  registry: OpenAPIRegistry,
  operation: Operation,
  security: Record<string, string[]>[],
) {
  const { id, method, path, summary, description, params, query, headers, body } = operation;
  const request = {
    ...(params && { params }),
    ...(query && { query }),
    ...(headers && { headers }),
    ...(body && {
      body: { required: body.required, content: { 'application/json': { schema: body.schema } } },
    }),
  };
  registry.registerPath({
    method,
    path,
    operationId: id,
    summary,
    ...(description && { description }),
    security: operation.role ? security : [],
    ...(Object.keys(request).length > 0 && { request }),
    responses: operation.answers,
  });
}

/** Each operation with a path parameter documents the router's 414 for a segment too long. */
function documentPathLimit(paths: Record<string, object>) {
  const tooLong = {
    description: `A path parameter longer than ${PATH_SEGMENT_MAX_LENGTH} characters as sent (percent-encoded)`,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  for (const [path, operations] of Object.entries(paths)) {
    if (!path.includes('{')) continue;
    for (const value of Object.values(operations)) {
      const operation = value as DocumentedOperation;
      operation.responses = { ...operation.responses, 414: tooLong };
    }
  }
}

type DocumentedOperation = { responses?: Record<string, unknown>; description?: string };

/** Each client operation names its role (x-jobdeck-role) and documents the 403 of holding less. */
function documentRoles(paths: Record<string, object>) {
  const forbidden = {
    description: 'The key (or signed-in member) holds a lesser role than this operation needs',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  for (const [path, operations] of Object.entries(paths)) {
    if (!path.startsWith('/v1/client/')) continue;
    for (const [method, value] of Object.entries(operations)) {
      const role = roleFor(method, path);
      if (!role)
        throw new Error(`${method.toUpperCase()} ${path} has no role in contract/roles.ts`);
      const operation = value as DocumentedOperation & Record<string, unknown>;
      operation['x-jobdeck-role'] = role;
      operation.description = `Needs the **${role}** role.${operation.description ? ` ${operation.description}` : ''}`;
      operation.responses = { ...operation.responses, 403: forbidden };
    }
  }
}
