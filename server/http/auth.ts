import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_SUBPROTOCOL_PREFIX, SESSION_HEADERS } from '../../contract';
import { csrfMatches, type ConsoleSessions } from '../auth/console-sessions';
import type { KeyStore, Principal } from '../store/ports';
import { HttpError } from './errors';
import { requestedProject, sessionTokenOf, type SessionCookie } from './session-cookie';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** The project of the request's API key; routes behind `authenticate` always have one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route is missing the authenticate hook');
  return request.principal;
}

/** Whoami's answer about the caller: the project, the role there, and who acts. */
export const whoAmIOf = ({ project, role, actor }: Principal) => ({ project, role, actor });

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Failed authentications per client address. The per-key limit can only count requests that
 * already have a key, so guesses were never limited. An address over this limit gets 429 before
 * its key is even looked at; valid keys from other addresses are untouched.
 */
export interface FailedAuthLimit {
  limiter: Limiter;
  max: number;
}

/** The key the request presents (a 401 when it presents none, or not as a bearer token). */
export function presentedKey(request: FastifyRequest): string {
  return checkKeyHeader(request.headers.authorization);
}

function checkKeyHeader(header: string | undefined): string {
  if (!header) {
    throw new HttpError(401, 'Authorization: missing; send "Authorization: Bearer <API_KEY>"');
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new HttpError(401, 'Authorization: must be "Bearer <API_KEY>"');
  return match[1];
}

/** Methods that change nothing: a session's requests need its CSRF token for every other one. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How a request proves who it is: a bearer key, or (from the console) a session cookie. */
export interface Credentials {
  keys: KeyStore;
  /** Null when the service takes keys only (no console sessions). */
  consoleSessions: { sessions: ConsoleSessions; cookie: SessionCookie } | null;
}

/**
 * The request's principal, or an HttpError (401, or 403 for a session acting where it may
 * not). A bearer key wins over a cookie: scripts and the key typed in Settings act as the key.
 *
 * Keys are compared in constant time with respect to the secret, without a timingSafeEqual: the
 * key store looks up SHA-256(presented key) in an index, and that comparison can only leak how
 * many leading characters of the *hash* of a guess match a stored hash. Nobody can steer a hash's
 * prefix towards a stored one (that takes a preimage), so timing tells nothing about any key; this
 * is the usual design for random bearer tokens. Comparing stored keys themselves, or short or
 * low-entropy secrets, would need timingSafeEqual; neither happens here.
 */
export async function principalFor(
  request: FastifyRequest,
  credentials: Credentials,
): Promise<Principal> {
  const { consoleSessions } = credentials;
  const token = consoleSessions && sessionTokenOf(request, consoleSessions.cookie);
  if (request.headers.authorization !== undefined || !token) {
    const principal = await credentials.keys.authenticate(presentedKey(request));
    if (!principal) throw new HttpError(401, 'Authorization: unknown or revoked API key');
    return principal;
  }
  return sessionPrincipal(request, consoleSessions.sessions, token);
}

async function sessionPrincipal(
  request: FastifyRequest,
  sessions: ConsoleSessions,
  token: string,
): Promise<Principal> {
  const session = await sessions.resolve(token);
  if (!session) throw new HttpError(401, 'session: ended or unknown; sign in again');
  const acts = !SAFE_METHODS.has(request.method) || isWebSocketUpgrade(request);
  if (acts && !csrfMatches(token, csrfHeader(request) ?? csrfSubprotocol(request))) {
    throw new HttpError(
      403,
      `${SESSION_HEADERS.csrf}: missing or not this session's; send the csrf_token of GET /v1/auth/session (a WebSocket: as the subprotocol ${CSRF_SUBPROTOCOL_PREFIX}<token>)`,
    );
  }
  const projects = await sessions.projectsOf(session);
  const wanted = requestedProject(request);
  const membership = wanted ? projects.find((p) => p.project === wanted) : projects[0];
  if (!membership) {
    throw new HttpError(
      403,
      wanted
        ? `${SESSION_HEADERS.project}: ${session.identity} is not a member of project "${wanted}"`
        : `members: ${session.identity} is not a member of any project; a project's admin can add it`,
    );
  }
  const actor = `user:${session.identity}`;
  return { keyId: actor, project: membership.project, role: membership.role, actor };
}

/**
 * A WebSocket is opened with a GET, yet it acts (a shell in a job), and a page of another port of
 * the same host is same-site for the session cookie: an upgrade needs the CSRF token too.
 */
const isWebSocketUpgrade = (request: FastifyRequest) =>
  request.headers.upgrade?.toLowerCase() === 'websocket';

/** Browsers cannot set headers on a WebSocket: the token comes as an offered subprotocol. */
export function csrfSubprotocol(request: { headers: IncomingHttpHeaders }): string | undefined {
  const offered = request.headers['sec-websocket-protocol'];
  if (typeof offered !== 'string') return undefined;
  const protocol = offered
    .split(',')
    .map((p) => p.trim())
    .find((p) => p.startsWith(CSRF_SUBPROTOCOL_PREFIX));
  return protocol?.slice(CSRF_SUBPROTOCOL_PREFIX.length);
}

const csrfHeader = (request: FastifyRequest) => {
  const value = request.headers[SESSION_HEADERS.csrf];
  return typeof value === 'string' ? value : undefined;
};

export function authenticate(credentials: Credentials, failures: FailedAuthLimit | undefined) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await refuseOverFailureLimit(request, reply, failures, 'Authorization');
    try {
      request.principal = await principalFor(request, credentials);
    } catch (error) {
      if (failures && error instanceof HttpError && error.statusCode === 401) {
        await failures.limiter(request);
      }
      throw error;
    }
  };
}

/** An address past the failure limit gets 429 before its key or password is even looked at. */
export async function refuseOverFailureLimit(
  request: FastifyRequest,
  reply: FastifyReply,
  failures: FailedAuthLimit | undefined,
  field: string,
) {
  if (!failures) return;
  const seen = await failures.limiter(request, { increment: false });
  if (!seen.isAllowed && seen.remaining === 0) {
    reply.header('retry-after', seen.ttlInSeconds);
    throw new HttpError(
      429,
      `${field}: more than ${failures.max} failed attempts per minute from this address; retry after ${seen.ttlInSeconds} s`,
    );
  }
}
