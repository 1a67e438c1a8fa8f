import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { KeyStore, Principal } from '../store/ports';
import { HttpError } from './errors';

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

/**
 * Keys are compared in constant time with respect to the secret, without a timingSafeEqual: the
 * key store looks up SHA-256(presented key) in an index, and that comparison can only leak how
 * many leading characters of the *hash* of a guess match a stored hash. Nobody can steer a hash's
 * prefix towards a stored one (that takes a preimage), so timing tells nothing about any key; this
 * is the usual design for random bearer tokens. Comparing stored keys themselves, or short or
 * low-entropy secrets, would need timingSafeEqual; neither happens here.
 */
export function authenticate(keys: KeyStore, failures: FailedAuthLimit | undefined) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (failures) {
      const seen = await failures.limiter(request, { increment: false });
      if (!seen.isAllowed && seen.remaining === 0) {
        reply.header('retry-after', seen.ttlInSeconds);
        throw new HttpError(
          429,
          `Authorization: more than ${failures.max} failed attempts per minute from this address; retry after ${seen.ttlInSeconds} s`,
        );
      }
    }
    try {
      const principal = await keys.authenticate(presentedKey(request));
      if (!principal) throw new HttpError(401, 'Authorization: unknown or revoked API key');
      request.principal = principal;
    } catch (error) {
      if (failures && error instanceof HttpError) await failures.limiter(request);
      throw error;
    }
  };
}
