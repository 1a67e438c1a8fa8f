import type {} from '@fastify/cookie'; // its request.cookies and reply.setCookie
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_HEADERS } from '../../contract';

/**
 * The console session's cookie. Over https it takes the __Host- prefix (Secure, Path=/, no
 * Domain: no other host, not even a subdomain, can set or shadow it). SameSite=Strict: the
 * console's own page is the only one whose requests carry it; the page itself needs no cookie
 * to load, so arriving from a link or the identity provider costs nothing.
 */
export interface SessionCookie {
  name: string;
  secure: boolean;
  maxAgeS: number;
}

export function sessionCookie(secure: boolean, maxAgeMs: number): SessionCookie {
  return {
    name: secure ? '__Host-jobdeck_session' : 'jobdeck_session',
    secure,
    maxAgeS: Math.floor(maxAgeMs / 1000),
  };
}

export const sessionTokenOf = (request: FastifyRequest, cookie: SessionCookie) =>
  request.cookies[cookie.name] || undefined;

export function setSessionCookie(reply: FastifyReply, cookie: SessionCookie, token: string) {
  reply.setCookie(cookie.name, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: cookie.secure,
    maxAge: cookie.maxAgeS,
  });
}

export function clearSessionCookie(reply: FastifyReply, cookie: SessionCookie) {
  reply.clearCookie(cookie.name, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: cookie.secure,
  });
}

/**
 * The project a signed-in request acts in: the header the console's requests send, else the
 * cookie it writes for the requests that cannot carry a header (EventSource).
 */
export function requestedProject(request: FastifyRequest): string | undefined {
  const header = request.headers[SESSION_HEADERS.project];
  if (typeof header === 'string' && header !== '') return header;
  return request.cookies.jobdeck_project || undefined;
}
