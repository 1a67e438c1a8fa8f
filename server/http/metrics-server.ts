import Fastify, { type FastifyInstance } from 'fastify';
import type { ServiceMetrics } from '../observability/metrics';
import type { DiskFullWatch } from '../store/disk-full';
import { installErrorHandling } from './errors';
import { API_SECURITY_HEADERS, hardenedServerOptions, type HttpTimeouts } from './hardening';
import { ZOD_ONLY } from './parse';
import { metricsRoute } from './routes/meta';

/**
 * /metrics alone on a port of its own (config `metrics.port`), so Prometheus can scrape it on an
 * address the API's clients never reach; everything else there is a 404 in the envelope.
 */
export function buildMetricsServer(options: {
  metrics: ServiceMetrics;
  timeouts: HttpTimeouts;
  storeDisk: DiskFullWatch;
}): FastifyInstance {
  const app = Fastify({ ...ZOD_ONLY, ...hardenedServerOptions(options.timeouts), logger: false });
  // No route here takes a body; the limit only words the 413 a client sending one gets.
  installErrorHandling(app, 1024, options.storeDisk);
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(API_SECURITY_HEADERS);
  });
  metricsRoute(app, options.metrics);
  return app;
}
