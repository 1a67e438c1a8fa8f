import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { PATH_SEGMENT_MAX_LENGTH } from './limits';
import type { Operation } from './operation';
import { OPERATIONS } from './operations';
import { webhookEventSchema } from './webhooks';

type Registry = OpenAPIRegistry;
type Security = Record<string, string[]>[];

/** The OpenAPI 3.1 document, generated from the contract's table of operations. */
export function buildOpenApiDocument() {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
  });
  const security = [{ [bearer.name]: [] }];
  for (const operation of OPERATIONS) registerOperation(registry, operation, security);
  registerWebhook(registry);
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

/** A schema as a component of its own, for what no JSON of the document refers to. */
function registerSchema(registry: Registry, name: string, schema: z.ZodType) {
  const json = z.toJSONSchema(schema, { io: 'output' });
  delete json.$schema; // the document's own dialect applies
  registry.registerComponent(
    'schemas',
    name,
    json as Parameters<typeof registry.registerComponent<'schemas'>>[2],
  );
}

/** One operation of the table as OpenAPI has it; the sign-in's take no key. */
function registerOperation(registry: Registry, operation: Operation, security: Security) {
  const { id, method, path, summary, description, params, query, headers, body } = operation;
  for (const [name, schema] of Object.entries(operation.components ?? {})) {
    registerSchema(registry, name, schema);
  }
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

/** What a webhook receives: not an operation of the service, but the document says it. */
function registerWebhook(registry: Registry) {
  // Reached only from `webhooks`, which generators do not follow: a component of its own.
  registerSchema(registry, 'WebhookEvent', webhookEventSchema);
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
}

type DocumentedOperation = { responses?: Record<string, unknown>; description?: string };
const errorRef = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** Each operation with a path parameter documents the router's 414 for a segment too long. */
function documentPathLimit(paths: Record<string, object>) {
  const tooLong = {
    description: `A path parameter longer than ${PATH_SEGMENT_MAX_LENGTH} characters as sent (percent-encoded)`,
    content: errorRef,
  };
  for (const [path, operations] of Object.entries(paths)) {
    if (!path.includes('{')) continue;
    for (const value of Object.values(operations)) {
      const operation = value as DocumentedOperation;
      operation.responses = { ...operation.responses, 414: tooLong };
    }
  }
}

/** Each client operation names its role (x-jobdeck-role) and documents the 403 of holding less. */
function documentRoles(paths: Record<string, object>) {
  const forbidden = {
    description: 'The key (or signed-in member) holds a lesser role than this operation needs',
    content: errorRef,
  };
  for (const { path, method, role } of OPERATIONS) {
    if (!role) continue;
    const operation = (paths as Record<string, Record<string, DocumentedOperation>>)[path]![
      method
    ]! as DocumentedOperation & Record<string, unknown>;
    operation['x-jobdeck-role'] = role;
    operation.description = `Needs the **${role}** role.${operation.description ? ` ${operation.description}` : ''}`;
    operation.responses = { ...operation.responses, 403: forbidden };
  }
}
