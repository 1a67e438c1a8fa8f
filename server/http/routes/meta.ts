import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../../../contract/openapi';

export type HealthCheck = () => Promise<{ engine: 'reachable' | 'unreachable'; store: 'ok' }>;

/**
 * Unauthenticated: a health probe, and the OpenAPI document where the extensions are served (no
 * job data in either). Health stays whatever the extensions: load balancers and orchestrators
 * probe it, and it is not a client operation.
 */
export function metaRoutes(app: FastifyInstance, health: HealthCheck, openApi: boolean): void {
  if (openApi) {
    const document = buildOpenApiDocument();
    app.get('/v1/openapi.json', async () => document);
  }
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
