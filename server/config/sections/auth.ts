import { z } from 'zod';
import { ROLES } from '../../../contract';
import { positiveInt } from './fields';

export const authSection = z
  .strictObject({
    require_sign_in: z
      .boolean()
      .default(false)
      .describe(
        'Sign-in even for a console on loopback with no users and no identity provider (set it when a proxy on this machine makes the console reachable from elsewhere)',
      ),
    public_url: z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .optional()
      .describe(
        "The console's address as browsers reach it, e.g. https://jobs.example.com: sessions' cookies are Secure when it is https, and OpenID Connect returns there",
      ),
    session_idle_minutes: positiveInt
      .max(60 * 24 * 30, 'must be at most 43200 (30 days)')
      .default(12 * 60)
      .describe('A session unused this long ends'),
    session_max_hours: positiveInt
      .max(24 * 90, 'must be at most 2160 (90 days)')
      .default(7 * 24)
      .describe('A session ends this long after sign-in, used or not'),
    sign_in_failures: positiveInt
      .max(100, 'must be at most 100')
      .default(5)
      .describe(
        'Failed password sign-ins per e-mail address in 15 minutes; then that address is refused for the rest of them',
      ),
    oidc: z
      .strictObject({
        issuer: z
          .url({ protocol: /^https?$/, error: 'must be an https:// URL' })
          .describe(
            "The OpenID Provider's issuer URL (its /.well-known/openid-configuration is read)",
          ),
        client_id: z
          .string()
          .min(1, 'must not be empty')
          .describe('This client’s id at the provider'),
        client_secret_file: z
          .string()
          .optional()
          .describe(
            'A file holding the client secret; without it, the JOBDECK_OIDC_CLIENT_SECRET variable does (never the configuration file itself)',
          ),
        label: z
          .string()
          .min(1)
          .max(60)
          .default('single sign-on')
          .describe('The sign-in button says "Sign in with <label>"'),
        scopes: z
          .array(z.string().regex(/^[\x21-\x7e]+$/, 'must be a scope name'))
          .default(['openid', 'email', 'profile'])
          .describe('Scopes asked for; add the one your provider needs for groups (often groups)'),
        groups_claim: z
          .string()
          .default('groups')
          .describe('The claim that lists the user’s groups'),
        group_roles: z
          .record(z.string(), z.array(z.strictObject({ project: z.string(), role: z.enum(ROLES) })))
          .default({})
          .describe(
            'Roles a group gives, e.g. { jobdeck-admins: [{ project: demo, role: admin }] }; read at each sign-in, beside the project’s members',
          ),
        allow_insecure_issuer: z
          .boolean()
          .default(false)
          .describe('An http:// issuer on loopback, for trials and tests; never another one'),
      })
      .optional()
      .describe('Sign-in through an OpenID Connect provider (authorization code flow with PKCE)'),
  })
  .prefault({})
  .describe("The console's sign-in (docs/deploy.md, A team's console)");

export type AuthConfig = z.infer<typeof authSection>;
