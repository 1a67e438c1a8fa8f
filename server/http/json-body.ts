import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

// JSON text is UTF-8 (RFC 8259). Decoding leniently would swap bad bytes for U+FFFD, so a
// sensitive value would silently reach the container changed; refuse instead.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * V8's messages quote the input for an unexpected token (`Unexpected token 'h', "hunter2…" is
 * not valid JSON`), which could hand back part of a secret; the others give only a position.
 */
function jsonErrorReason(error: Error): string {
  return error.message.startsWith('Unexpected token') ? 'unexpected character' : error.message;
}

/**
 * The spec sends `Content-Type: application/json` on every request, including Cancel Job,
 * which has no body. Fastify's own parser rejects an empty JSON body, so this one allows it.
 * JSON.parse keeps a `"__proto__"` key as an own property (no prototype is set), and the
 * contract refuses it by name.
 */
export function installJsonParser(app: FastifyInstance): void {
  // Only JSON: Fastify's default text/plain parser would turn a text body into a string payload.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      return done(new HttpError(400, 'body: not valid UTF-8'), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(
        new HttpError(400, `body: not valid JSON (${jsonErrorReason(error as Error)})`),
        undefined,
      );
    }
  });
}
