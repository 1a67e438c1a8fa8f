import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { JobRequestError } from '../jobs/errors';
import type { DiskFullWatch } from '../store/disk-full';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

const STATUS_OF_KIND = {
  invalid: 400,
  'not-found': 404,
  conflict: 409,
  unavailable: 503,
  // What this service's engine cannot do at all (a command in a job on the simulated engine).
  unsupported: 501,
} as const;

export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).send({ ok: false, message });
}

/**
 * The path as the client sent it, when it is short and plain: an arbitrary path can be 16 KiB of
 * anything (a pasted key, markup), and the query string can hold a secret, so neither is echoed.
 */
function quotablePath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.length <= 200 && /^[\w\-./~%:]*$/.test(path) ? path : 'at this path';
}

/**
 * Every failure leaves as `{ ok: false, message }`. Messages of 4xx name the field and the
 * reason; a 5xx says only that it failed and which request to look for in the log.
 */
export function installErrorHandling(
  app: FastifyInstance,
  bodyLimitBytes: number,
  storeDisk: DiskFullWatch,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Nothing was written (the transaction rolled back), so nothing accepted is lost; the
    // operator can act on it, the client can retry.
    if (storeDisk.check(error)) {
      request.log.error({ err: error }, "the store's disk is full: a write was refused");
      return sendError(
        reply,
        503,
        'store: its disk is full, so nothing could be written; retry once an operator has freed space (the service log says where)',
      );
    }
    if (error instanceof JobRequestError) {
      return sendError(reply, STATUS_OF_KIND[error.kind], error.message);
    }
    if (error instanceof HttpError) return sendError(reply, error.statusCode, error.message);
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(reply, 413, `body: larger than the limit of ${bodyLimitBytes} bytes`);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(reply, 400, 'Content-Type: must be application/json');
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendError(reply, 400, 'Content-Length: does not match the body');
    }
    if (error.statusCode === 429) {
      return sendError(reply, 429, error.message);
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, error.statusCode, error.message);
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(
      reply,
      500,
      `internal error; the service log has the details (request ${request.id})`,
    );
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, `no endpoint ${request.method} ${quotablePath(request.url)}`),
  );
}

/**
 * Once the service is stopping, a request that still arrives on an open connection gets a 503
 * in the envelope, and the connection is closed so the client's next try goes elsewhere.
 */
export function installDraining(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    return sendError(
      reply.header('connection', 'close'),
      503,
      'service: stopping for a restart; retry in a moment',
    );
  });
}
