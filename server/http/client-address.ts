import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** Whose request this is: what the failure limit counts and the audit trail records. */
    clientAddress: string;
  }
}

/**
 * How the console server tells the API whose request it forwards: the browser's address, with a
 * proof only the console server of this process holds. Anyone can send these headers; without
 * the proof they are ignored.
 */
export const CONSOLE_FORWARDING = {
  proof: 'x-jobdeck-console-proof',
  client: 'x-jobdeck-console-client',
} as const;

/** A new proof for each start: kept in memory by the API and the console server alone. */
export const newConsoleProof = () => randomBytes(32).toString('base64url');

/**
 * Fastify's `trustProxy` for the configured proxies: `request.ip` is then the first address of
 * X-Forwarded-For, read from the right, that is not a trusted proxy's; with none, the socket's.
 */
export const trustProxyOption = (trustedProxies: readonly string[]) =>
  trustedProxies.length > 0 ? [...trustedProxies] : false;

/**
 * Gives every request of `app` its `clientAddress`: the one the console server vouches for with
 * `consoleProof` (undefined: no console server forwards to this API), or else `request.ip`.
 */
export function installClientAddress(app: FastifyInstance, consoleProof: string | undefined) {
  const expected = consoleProof === undefined ? undefined : digest(consoleProof);
  app.decorateRequest('clientAddress', {
    getter(this: FastifyRequest) {
      return (expected && vouchedAddress(this, expected)) || this.ip;
    },
  });
}

/** The same length whatever is presented, so the comparison is constant-time. */
const digest = (text: string) => hash('sha256', text, 'buffer');

function vouchedAddress(request: FastifyRequest, expected: Buffer): string | undefined {
  const proof = request.headers[CONSOLE_FORWARDING.proof];
  const client = request.headers[CONSOLE_FORWARDING.client];
  if (typeof proof !== 'string' || typeof client !== 'string') return undefined;
  if (!timingSafeEqual(digest(proof), expected)) return undefined;
  return isIP(client) === 0 ? undefined : client;
}

/**
 * The headers the console server sends on, for a browser at `clientAddress`: its own word for the
 * address replaces whatever the browser claimed (forwarding headers, a forged proof).
 */
export function consoleForwardingHeaders(
  headers: IncomingHttpHeaders,
  clientAddress: string,
  consoleProof: string,
): IncomingHttpHeaders {
  const sent = { ...headers };
  delete sent['x-forwarded-for'];
  delete sent.forwarded;
  return {
    ...sent,
    [CONSOLE_FORWARDING.proof]: consoleProof,
    [CONSOLE_FORWARDING.client]: clientAddress,
  };
}
