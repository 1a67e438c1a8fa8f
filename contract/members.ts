import { z } from 'zod';
import { acceptedBodySchema } from './envelope';
import { defineOperations, errors, failure, json, jsonBody, ok } from './operation';
import { roleSchema } from './roles';

/**
 * Extension: who may sign in to a project and with which role. A member is named by e-mail
 * (matched against a local user's or a verified OpenID Connect e-mail) or by `sub:<subject>`
 * (an OpenID Connect subject, for providers without e-mail).
 */
export const MEMBER_LIMITS = { identityMaxLength: 254, perProject: 1000 };

const IDENTITY_MESSAGE = 'must be an e-mail address or sub:<OpenID Connect subject>';

/** The identity's grammar (spaces around it are trimmed away), as the document's pattern. */
const MEMBER_IDENTITY = /^\s*(?:sub:[\x21-\x7e]+|[^\s@]+@[^\s@]+)\s*$/;

export const memberIdentitySchema = z
  .string({ error: IDENTITY_MESSAGE })
  .trim()
  .max(
    MEMBER_LIMITS.identityMaxLength,
    `must be at most ${MEMBER_LIMITS.identityMaxLength} characters`,
  )
  .regex(MEMBER_IDENTITY, IDENTITY_MESSAGE)
  // E-mail addresses compare without case; a subject is the provider's, exactly.
  .transform((identity) => (identity.startsWith('sub:') ? identity : identity.toLowerCase()));

/** `/members/{identity}`: checked like a field, and so documented. */
export const memberPathSchema = z.object({
  identity: memberIdentitySchema.meta({
    description: 'An e-mail address, or sub:<subject> (URL-encoded)',
  }),
});

export const memberSchema = z.object({
  identity: z.string().meta({ description: 'An e-mail address, or sub:<subject>' }),
  role: roleSchema,
  added_by: z.string().nullable().meta({ description: 'Who added it; null from the command line' }),
  added_at: z.string().meta({ description: 'RFC 3339' }),
  last_sign_in_at: z
    .string()
    .nullable()
    .meta({ description: 'RFC 3339: the latest sign-in of a user with this identity' }),
});
export type Member = z.infer<typeof memberSchema>;

export const membersSchema = z.object({ items: z.array(memberSchema) });

export const putMemberSchema = z.strictObject(
  { role: roleSchema },
  { error: 'body must be a JSON object like { "role": "operator" }' },
);
export type PutMemberRequest = z.infer<typeof putMemberSchema>;

const lastAdmin = failure('The project would be left without an admin member');

export const memberOperations = defineOperations({
  listMembers: {
    id: 'listMembers',
    method: 'get',
    path: '/v1/client/members',
    role: 'admin',
    summary: 'Who signs in to this project, with which role and when they last did (extension)',
    answers: { 200: ok(membersSchema, 'Members by identity'), ...errors(401, 429) },
  },
  putMember: {
    id: 'putMember',
    method: 'put',
    path: '/v1/client/members/{identity}',
    role: 'admin',
    summary: `Add a member or change its role, at most ${MEMBER_LIMITS.perProject} a project (extension)`,
    params: memberPathSchema,
    body: jsonBody(putMemberSchema),
    answers: {
      200: ok(memberSchema, 'Its role changed'),
      201: ok(memberSchema, 'Added'),
      ...errors(400, 401, 429),
      409: lastAdmin,
    },
  },
  removeMember: {
    id: 'removeMember',
    method: 'delete',
    path: '/v1/client/members/{identity}',
    role: 'admin',
    summary: 'Remove a member from this project (extension)',
    params: memberPathSchema,
    answers: {
      200: json(acceptedBodySchema, 'Removed'),
      ...errors(400, 401, 429),
      404: failure('Not a member of this project'),
      409: lastAdmin,
    },
  },
});
