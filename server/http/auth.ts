import type { FastifyReply, FastifyRequest } from 'fastify';
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

export function authenticate(keys: KeyStore) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const header = request.headers.authorization;
    if (!header) {
      throw new HttpError(401, 'Authorization: missing; send "Authorization: Bearer <API_KEY>"');
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) {
      throw new HttpError(401, 'Authorization: must be "Bearer <API_KEY>"');
    }
    const principal = await keys.authenticate(match[1]);
    if (!principal) throw new HttpError(401, 'Authorization: unknown or revoked API key');
    request.principal = principal;
  };
}
