import { z } from 'zod';
import { acceptedBodySchema } from './envelope';
import { defineOperations, errors, failure, json, jsonBody, ok } from './operation';
import { MEMBER_LIMITS } from './members';
import { roleSchema } from './roles';

/**
 * Extension: the console's sign-in. A signed-in browser holds an HttpOnly session cookie; its
 * requests to /v1/client name the project in `X-Jobdeck-Project` and, when they change
 * anything, carry the session's `X-CSRF-Token`.
 */
export const SESSION_HEADERS = { project: 'x-jobdeck-project', csrf: 'x-csrf-token' } as const;

export const signInMethodsSchema = z.object({
  password: z.boolean().meta({ description: 'Local users may sign in with e-mail and password' }),
  oidc: z
    .string()
    .nullable()
    .meta({ description: "The identity provider's button label; null: not configured" }),
});

export const sessionSchema = z.object({
  mode: z.enum(['local', 'sign-in']).meta({
    description:
      'local: the console on loopback with nobody to sign in acts as a local administrator; sign-in: each person signs in',
  }),
  methods: signInMethodsSchema,
  user: z
    .object({
      identity: z.string().meta({ description: 'E-mail address, or sub:<subject>' }),
      name: z.string().nullable(),
      source: z.enum(['local', 'oidc']),
    })
    .nullable()
    .meta({ description: 'Null: not signed in' }),
  csrf_token: z
    .string()
    .nullable()
    .meta({ description: 'Send as X-CSRF-Token on every request that changes anything' }),
  projects: z
    .array(z.object({ project: z.string(), role: roleSchema }))
    .meta({ description: "The signed-in user's projects and roles, by name" }),
});
export type Session = z.infer<typeof sessionSchema>;

/** An address as long as a member's identity may be; a password longer than anyone types. */
export const SIGN_IN_LIMITS = {
  emailMaxLength: MEMBER_LIMITS.identityMaxLength,
  passwordMaxLength: 1024,
} as const;
const atMost = (length: number) => `must be at most ${length} characters`;

export const signInSchema = z.strictObject(
  {
    email: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, 'must not be empty')
      .max(SIGN_IN_LIMITS.emailMaxLength, atMost(SIGN_IN_LIMITS.emailMaxLength)),
    password: z
      .string({ error: 'must be a string' })
      .min(1, 'must not be empty')
      .max(SIGN_IN_LIMITS.passwordMaxLength, atMost(SIGN_IN_LIMITS.passwordMaxLength)),
  },
  { error: 'body must be a JSON object like { "email": "…", "password": "…" }' },
);
export type SignInRequest = z.infer<typeof signInSchema>;

/** The console's sign-in button: where to go back to once signed in (a path of the console). */
export const oidcStartQuerySchema = z.strictObject({ return_to: z.string().optional() });

export const signOutSchema = z.strictObject(
  {
    everywhere: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .meta({ description: "End every one of this user's sessions, on every device" }),
  },
  { error: 'body must be a JSON object like { "everywhere": true }' },
);

const session = sessionSchema.meta({ id: 'Session' });

/** The console's sign-in, outside /v1/client: no role, no API key. */
export const signInOperations = defineOperations({
  getSession: {
    id: 'getSession',
    method: 'get',
    path: '/v1/auth/session',
    role: null,
    summary:
      "The console's sign-in: its mode and methods, and the signed-in user if any (extension)",
    description: 'Reads the session cookie; takes no API key.',
    answers: { 200: ok(session, 'The session, or user: null') },
  },
  signIn: {
    id: 'signIn',
    method: 'post',
    path: '/v1/auth/sign-in',
    role: null,
    summary: 'Sign in to the console as a local user (extension)',
    description:
      'Sets an HttpOnly, SameSite=Strict session cookie (Secure, __Host- prefixed, over https) and ends any session the browser held. A wrong password and an unknown e-mail get the same answer.',
    body: jsonBody(signInSchema),
    answers: {
      200: ok(session, 'Signed in'),
      ...errors(400),
      401: failure('email or password: not recognised'),
      429: failure('Too many failed sign-ins for the address or from this client; see Retry-After'),
    },
  },
  signOut: {
    id: 'signOut',
    method: 'post',
    path: '/v1/auth/sign-out',
    role: null,
    summary: 'End this session, or every session of the user (extension)',
    description: "Needs the session's X-CSRF-Token.",
    body: jsonBody(signOutSchema, false),
    answers: {
      200: json(acceptedBodySchema, 'Signed out (also when no session was held)'),
      ...errors(400),
      403: failure('X-CSRF-Token missing or not this session’s'),
    },
  },
});
