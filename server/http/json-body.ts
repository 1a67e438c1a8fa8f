import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/**
 * The spec sends `Content-Type: application/json` on every request, including Cancel Job,
 * which has no body. Fastify's own parser rejects an empty JSON body, so this one allows it.
 */
export function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
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
