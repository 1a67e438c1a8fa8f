import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../../../contract/openapi';

export type HealthCheck = () => Promise<{ engine: 'reachable' | 'unreachable'; store: 'ok' }>;

/** Unauthenticated: the OpenAPI document and a health probe (no job data in either). */
export function metaRoutes(app: FastifyInstance, health: HealthCheck): void {
  const document = buildOpenApiDocument();
  app.get('/v1/openapi.json', async () => document);
  app.get('/v1/health', async (_request, reply) => {
    const status = await health();
    const ok = status.engine === 'reachable';
    return reply
      .code(ok ? 200 : 503)
      .send(
        ok
          ? { ok: true, data: status }
          : { ok: false, message: 'engine: the container engine is unreachable' },
      );
  });
}
