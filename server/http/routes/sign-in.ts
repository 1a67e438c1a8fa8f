import type { FastifyInstance } from 'fastify';
import { signInSchema, signOutSchema, type Session, signInOperations } from '../../../contract';
import { operationRoute } from '../operation-route';
import { csrfMatches, csrfTokenOf, type ConsoleSessions } from '../../auth/console-sessions';
import type { OidcSignIn } from '../../auth/oidc-sign-in';
import type { SignInMode } from '../../auth/sign-in-mode';
import { refuseOverFailureLimit, type FailedAuthLimit } from '../auth';
import { HttpError } from '../errors';
import { parseBodyOrThrow } from '../parse';
import { auditAs, auditInProjects } from '../audit';
import { oidcSignInRoutes } from './oidc-sign-in';
import {
  clearSessionCookie,
  sessionTokenOf,
  setSessionCookie,
  type SessionCookie,
} from '../session-cookie';

export interface SignInRouteOptions {
  sessions: ConsoleSessions;
  cookie: SessionCookie;
  mode: () => Promise<SignInMode>;
  /** Sign-in through an identity provider, and its button's label; null without one. */
  oidc: { flow: OidcSignIn; label: string } | null;
  failures: FailedAuthLimit | undefined;
}

/** The console's sign-in, outside /v1/client: these take no API key. */
export function signInRoutes(app: FastifyInstance, options: SignInRouteOptions): void {
  const { sessions, cookie } = options;
  if (options.oidc) oidcSignInRoutes(app, { flow: options.oidc.flow, cookie });

  const sessionAnswer = async (token: string | undefined): Promise<Session> => {
    const session = token ? await sessions.resolve(token) : undefined;
    return {
      mode: await options.mode(),
      methods: { password: true, oidc: options.oidc?.label ?? null },
      user: session
        ? { identity: session.identity, name: session.name, source: session.source }
        : null,
      csrf_token: session && token ? csrfTokenOf(token) : null,
      projects: session ? await sessions.projectsOf(session) : [],
    };
  };

  operationRoute(app, signInOperations.getSession, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { ok: true, data: await sessionAnswer(sessionTokenOf(request, cookie)) };
  });

  operationRoute(app, signInOperations.signIn, async (request, reply) => {
    // Guesses count against the same per-address limit as guessed keys.
    await refuseOverFailureLimit(request, reply, options.failures, 'sign-in');
    const { email, password } = parseBodyOrThrow(signInSchema, request.body);
    const result = await sessions.withPassword(email, password);
    if (!result.ok) {
      // No project: an address tried is not yet anyone's, and must not show up in a project.
      auditAs(
        request,
        { project: null, actor: `user:${email.trim().toLowerCase()}` },
        'user.sign_in_failed',
      );
      await options.failures?.limiter(request);
      if (result.reason === 'too-many') {
        reply.header('retry-after', result.retryAfterS);
        throw new HttpError(
          429,
          `email: too many failed sign-ins for this address; retry after ${result.retryAfterS} s`,
        );
      }
      throw new HttpError(401, 'email or password: not recognised');
    }
    // A session the browser held before is ended, not carried over: no fixation.
    const previous = sessionTokenOf(request, cookie);
    if (previous) await sessions.signOut(previous, false);
    setSessionCookie(reply, cookie, result.token);
    reply.header('cache-control', 'no-store');
    const answer = await sessionAnswer(result.token);
    auditInProjects(request, answer.user!.identity, answer.projects, 'user.sign_in');
    return { ok: true, data: answer };
  });

  operationRoute(app, signInOperations.signOut, async (request, reply) => {
    const { everywhere } = parseBodyOrThrow(signOutSchema, request.body);
    const token = sessionTokenOf(request, cookie);
    if (!token || !(await sessions.resolve(token))) {
      clearSessionCookie(reply, cookie);
      return { ok: true };
    }
    const presented = request.headers['x-csrf-token'];
    if (!csrfMatches(token, typeof presented === 'string' ? presented : undefined)) {
      throw new HttpError(403, 'x-csrf-token: missing or not this session’s');
    }
    const session = await sessions.resolve(token);
    await sessions.signOut(token, everywhere ?? false);
    if (session) {
      const projects = await sessions.projectsOf(session);
      auditInProjects(request, session.identity, projects, 'user.sign_out', { everywhere });
    }
    clearSessionCookie(reply, cookie);
    return { ok: true };
  });
}
