import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/**
 * The spec sends `Content-Type: application/json` on every request, including Cancel Job,
 * which has no body. Fastify's own parser rejects an empty JSON body, so this one allows it.
 */
export function installJsonParser(app: FastifyInstance): void {
  // Only JSON: Fastify's default text/plain parser would turn a text body into a string payload.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(new HttpError(400, `body: not valid JSON (${(error as Error).message})`), undefined);
    }
  });
}
