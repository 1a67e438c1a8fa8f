import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyHttpOptions, FastifyInstance, FastifyReply } from 'fastify';
import { MEMBER_LIMITS, PATH_SEGMENT_MAX_LENGTH } from '../../contract';
import { HttpError } from './errors';

export interface HttpTimeouts {
  headers_seconds: number;
  request_seconds: number;
  keep_alive_seconds: number;
}

/** Node's default: 16 KiB for the request line and all headers together; past it, 431. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Job ids are 36 characters; every id in a path may have up to this many (the contract's). */
export const MAX_ID_LENGTH = PATH_SEGMENT_MAX_LENGTH;

/** Path parameters that may be longer than an id: a member's e-mail address. */
const PARAMETER_MAX_LENGTHS: Readonly<Record<string, number>> = {
  identity: MEMBER_LIMITS.identityMaxLength,
};

/**
 * Sent with every API response: nothing of a job may sit in a cache, be sniffed into HTML, or be
 * framed. The console server adds its own page policy on top.
 */
export const API_SECURITY_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
} as const;

export function envelope(message: string): string {
  return JSON.stringify({ ok: false, message });
}

/** Headers of an error answered outside Fastify's reply, closing the connection after it. */
function closingErrorHeaders(body: string): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...API_SECURITY_HEADERS,
  };
}

/** An error answer written straight to the socket, for errors raised before any request exists. */
function rawErrorResponse(status: number, message: string): string {
  const body = envelope(message);
  const head = Object.entries(closingErrorHeaders(body)).map(
    ([name, value]) => `${name}: ${value}`,
  );
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * Status and message for what Node's parser or timers refuse. The parser's `reason` is a fixed
 * text of llhttp's; the raw packet (which could hold a key or a secret) is never quoted.
 */
function clientErrorAnswer(
  error: Error & { code?: string; reason?: string },
  timeouts: HttpTimeouts,
): [number, string] {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [
        408,
        `request: not received in time (headers within ${timeouts.headers_seconds} s, the whole request within ${timeouts.request_seconds} s)`,
      ];
    case 'HPE_HEADER_OVERFLOW':
      return [431, `headers: larger than ${MAX_HEADER_BYTES} bytes in all`];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'body: chunk extensions too large'];
    default:
      return [400, `request: not valid HTTP/1.1 (${error.reason ?? error.code ?? 'parse error'})`];
  }
}

/**
 * Fastify options that bound how long and how much a client may send, and that answer in the
 * envelope where Fastify or Node would otherwise answer in their own shape (or not at all).
 */
export function hardenedServerOptions(timeouts: HttpTimeouts): FastifyHttpOptions<Server> {
  return {
    // The whole request, body included: a withheld or trickled body is cut here (408).
    requestTimeout: timeouts.request_seconds * 1000,
    // An idle keep-alive connection; Fastify's default (72 s) let idle sockets pile up.
    keepAliveTimeout: timeouts.keep_alive_seconds * 1000,
    http: {
      headersTimeout: timeouts.headers_seconds * 1000,
      // Node checks the two timeouts above on this interval (default 30 s, so cuts came late).
      connectionsCheckingInterval: 1000,
      maxHeaderSize: MAX_HEADER_BYTES,
      // Node answers a missing Host with a bare 400 and no body; answerInEnvelope says why.
      requireHostHeader: false,
    },
    // The router's cap would refuse a parameter without naming it (nor knowing its own limit);
    // the request line's bound is enough for it, and refuseLongPathParameters names each one.
    routerOptions: { maxParamLength: MAX_HEADER_BYTES },
    clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      // Like Node's own handler: never write into a response that has begun.
      const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
      if (socket.writable && !inFlight?.headersSent) {
        const [status, message] = clientErrorAnswer(error, timeouts);
        socket.write(rawErrorResponse(status, message));
      }
      socket.destroy();
    },
    // Errors of the router, before any route or hook runs. Neither answer quotes the path.
    frameworkErrors(error: FastifyError, _request, reply: FastifyReply) {
      const [status, message] =
        error.code === 'FST_ERR_BAD_URL'
          ? [400, 'job_id: is not valid percent-encoding']
          : [500, 'internal error while routing the request'];
      void reply
        .code(status)
        .headers(API_SECURITY_HEADERS)
        .type('application/json')
        .send(envelope(message));
    },
  };
}

/**
 * A path parameter longer than it may be is a 414 naming it, before authentication (as the
 * router's own cap was), and without quoting it: it could be anything pasted into a URL.
 */
export function refuseLongPathParameters(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.is404) return; // the not-found route's `*` is no parameter: its answer says so
    for (const [name, value] of Object.entries(request.params as Record<string, string>)) {
      const max = PARAMETER_MAX_LENGTHS[name] ?? MAX_ID_LENGTH;
      if (value.length > max) {
        const hint = name === 'job_id' ? ' (job ids have 36)' : '';
        throw new HttpError(414, `${name}: must be at most ${max} characters${hint}`);
      }
    }
  });
}

/**
 * What Node would answer bare, or not at all, said in the envelope: an HTTP/1.1 request without
 * `Host` (Node's own check is off for this), and CONNECT (Node drops the socket unless someone
 * listens; this is no proxy).
 */
export function answerMalformedInEnvelope(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return reply
        .code(400)
        .headers({ ...API_SECURITY_HEADERS, connection: 'close' })
        .type('application/json')
        .send(envelope('Host: required in an HTTP/1.1 request'));
    }
  });
  app.server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    socket.end(rawErrorResponse(405, 'CONNECT: this service is not a proxy'));
  });
}

/**
 * `Expect: 100-continue` is answered by Node itself; any other expectation gets Node's bare 417
 * unless someone listens, so this listener says it in the envelope.
 */
export function answerExpectationsInEnvelope(app: FastifyInstance): void {
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const body = envelope('Expect: only "100-continue" is supported');
    response.writeHead(417, closingErrorHeaders(body)).end(body);
    request.resume();
  });
}

/** How long a close waits for requests still arriving; below the CLI's 10 s hard stop. */
export const CLOSE_GRACE_MS = 5000;

/**
 * Node stops enforcing requestTimeout once the server is closing, so a client that withholds its
 * body would hold the close open for as long as it likes (and SIGTERM would end in the CLI's hard
 * exit). Requests under way are answered within milliseconds; whatever is still connected after
 * the grace is a slow client, and is cut so that the close completes.
 */
export function cutStalledConnectionsOnClose(app: FastifyInstance): void {
  app.addHook('preClose', async () => {
    setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS).unref();
  });
}
