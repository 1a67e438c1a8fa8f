import { z } from 'zod';
import { acceptedBodySchema } from './envelope';
import { defineOperations, errors, failure, json, jsonBody, ok } from './operation';
import { roleSchema } from './roles';
import { NON_BLANK_TEXT, plainText } from './text';

/** Extension: a project's API keys, managed by its admins (the key itself is shown once). */
export const KEY_LIMITS = { labelMaxLength: 100, activePerProject: 100, maxDays: 3650 };

export const apiKeySchema = z.object({
  id: z.string(),
  label: z.string().nullable(),
  role: roleSchema,
  created_at: z.string().meta({ description: 'RFC 3339' }),
  created_by: z
    .string()
    .nullable()
    .meta({ description: 'Who created it (`user:…`, `key:…`); null from the command line' }),
  expires_at: z.string().nullable().meta({ description: 'RFC 3339; null: never' }),
  last_used_at: z
    .string()
    .nullable()
    .meta({ description: 'RFC 3339, within a minute; null: never used' }),
  revoked_at: z.string().nullable().meta({ description: 'RFC 3339; null: active' }),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeysSchema = z.object({ items: z.array(apiKeySchema) });

export const createdApiKeySchema = apiKeySchema.extend({
  key: z.string().meta({ description: 'The key itself: shown in this answer only, never again' }),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

const DAYS_MESSAGE = `must be a whole number of days from 1 to ${KEY_LIMITS.maxDays}`;

export const createApiKeySchema = z.strictObject(
  {
    // Spaces alone are trimmed to nothing: the document's pattern says so.
    label: plainText(
      z
        .string({ error: 'must be a string' })
        .trim()
        .min(1, { message: 'must not be empty', abort: true })
        .max(KEY_LIMITS.labelMaxLength, `must be at most ${KEY_LIMITS.labelMaxLength} characters`),
      NON_BLANK_TEXT,
      'must not be empty',
    ),
    role: roleSchema.optional().meta({ description: 'operator when left out' }),
    expires_in_days: z
      .number({ error: DAYS_MESSAGE })
      .int(DAYS_MESSAGE)
      .min(1, DAYS_MESSAGE)
      .max(KEY_LIMITS.maxDays, DAYS_MESSAGE)
      .optional()
      .meta({ description: 'Left out: the key never expires' }),
  },
  { error: 'body must be a JSON object like { "label": "ci", "role": "operator" }' },
);
export type CreateApiKeyRequest = z.infer<typeof createApiKeySchema>;

export const keyOperations = defineOperations({
  listKeys: {
    id: 'listKeys',
    method: 'get',
    path: '/v1/client/keys',
    role: 'admin',
    summary: "The project's API keys, newest first, never the keys themselves (extension)",
    answers: {
      200: ok(apiKeysSchema, 'Keys with role, expiry and last use'),
      ...errors(401, 429),
    },
  },
  createKey: {
    id: 'createKey',
    method: 'post',
    path: '/v1/client/keys',
    role: 'admin',
    summary: 'Create an API key of this project with a role and an optional expiry (extension)',
    description: 'The key itself is in this answer only; only its hash is stored.',
    body: jsonBody(createApiKeySchema),
    answers: {
      201: ok(createdApiKeySchema, 'The key, shown this once'),
      ...errors(400, 401, 429),
      409: failure(`The project already has ${KEY_LIMITS.activePerProject} active keys`),
    },
  },
  revokeKey: {
    id: 'revokeKey',
    method: 'delete',
    path: '/v1/client/keys/{id}',
    role: 'admin',
    summary: 'Revoke an API key of this project at once (revoking twice is fine) (extension)',
    params: z.object({ id: z.string().meta({ description: 'The key’s id' }) }),
    answers: {
      200: json(acceptedBodySchema, 'Revoked'),
      ...errors(401, 429),
      404: failure('No such key in this API key’s project'),
    },
  },
});
