import type { FastifyInstance, FastifyReply } from 'fastify';
import { oidcStartQuerySchema } from '../../../contract';
import { OidcSignInError } from '../../auth/oidc';
import { safeReturnTo, type OidcSignIn as OidcFlow } from '../../auth/oidc-sign-in';
import { auditInProjects } from '../audit';
import { ANY_QUERY, type Query } from '../query-rule';
import { sessionTokenOf, setSessionCookie, type SessionCookie } from '../session-cookie';

/** Holds the state of a sign-in under way: sent back on the provider's redirect (SameSite=Lax). */
const STATE_COOKIE = 'jobdeck_oidc_state';
const CALLBACK = '/v1/auth/oidc/callback';

/** Sign-in through the OpenID Provider: the console's button navigates to start. */
export function oidcSignInRoutes(
  app: FastifyInstance,
  options: { flow: OidcFlow; cookie: SessionCookie },
): void {
  const { flow, cookie } = options;
  const stateCookie = {
    path: CALLBACK,
    httpOnly: true,
    sameSite: 'lax',
    secure: cookie.secure,
  } as const;

  // Back to the console's sign-in page, which shows the message and offers to go on where the
  // sign-in was going; never a stack or a token.
  const failed = (reply: FastifyReply, error: unknown, startedFor?: string) => {
    if (!(error instanceof OidcSignInError)) throw error;
    reply.log.warn({ reason: error.reason }, 'OpenID Connect sign-in failed');
    const returnTo = startedFor ?? error.returnTo;
    const goingTo = returnTo === '/' ? '' : `&return_to=${encodeURIComponent(returnTo)}`;
    return reply.redirect(`/sign-in?error=${encodeURIComponent(error.message)}${goingTo}`, 303);
  };

  app.get<Query<typeof oidcStartQuerySchema>>(
    '/v1/auth/oidc/start',
    { config: { query: oidcStartQuerySchema } },
    async (request, reply) => {
      try {
        const { url, state } = await flow.begin(request.query.return_to ?? '/');
        reply.setCookie(STATE_COOKIE, state, { ...stateCookie, maxAge: 600 });
        return await reply.header('cache-control', 'no-store').redirect(url, 303);
      } catch (error) {
        return failed(reply, error, safeReturnTo(request.query.return_to));
      }
    },
  );

  // The provider's redirect carries parameters of its own (code, state, iss, session_state, …),
  // which the flow reads from the whole URL: none is refused here.
  app.get<{ Querystring: { state?: string } }>(
    CALLBACK,
    { config: { query: ANY_QUERY } },
    async (request, reply) => {
      reply.clearCookie(STATE_COOKIE, stateCookie).header('cache-control', 'no-store');
      try {
        const signedIn = await flow.complete(
          request.url,
          request.query.state,
          request.cookies[STATE_COOKIE],
          sessionTokenOf(request, cookie),
        );
        setSessionCookie(reply, cookie, signedIn.token);
        auditInProjects(request, signedIn.identity, signedIn.projects, 'user.sign_in', {
          via: 'oidc',
        });
        return await reply.redirect(signedIn.returnTo, 303);
      } catch (error) {
        return failed(reply, error);
      }
    },
  );
}
