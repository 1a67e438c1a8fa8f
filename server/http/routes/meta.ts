import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceMetrics } from '../../observability/metrics';

type Reachability = 'reachable' | 'unreachable';
export type ReadinessCheck = () => Promise<{
  store: Reachability | 'disk full';
  engine: Reachability;
}>;

/**
 * Unauthenticated, and free of job data: the OpenAPI document (where the extensions are served),
 * liveness, readiness and, when asked for, metrics (labels are queues, states and route templates; see
 * ServiceMetrics). Health, readiness and metrics stay whatever the extensions: load balancers,
 * orchestrators and Prometheus probe them, and none is a client operation.
 */
export function metaRoutes(
  app: FastifyInstance,
  options: {
    readiness: ReadinessCheck;
    /** Named beside the engine's reachability, so a simulated engine is never taken for a real one. */
    engine: string;
    /** Whether this instance is the one that dispatches (holds the dispatcher lease). */
    dispatching: () => boolean;
    metrics: ServiceMetrics;
    openApi: boolean;
    /** Off by default: the counts name projects and queues, and /metrics takes no key. */
    metricsOnApiPort: boolean;
  },
): void {
  if (options.openApi) {
    // Built on first request, not at start-up: the generator is a large module.
    let document: Promise<unknown> | undefined;
    app.get('/v1/openapi.json', async () => {
      document ??= import('../../../contract/openapi').then((m) => m.buildOpenApiDocument());
      return document;
    });
  }

  // Alive: the process answers HTTP. Nothing else is asked, so a database or engine outage never
  // gets the process restarted by its supervisor.
  app.get('/healthz', async () => ({ ok: true }));

  const named = (part: string) =>
    part === 'engine' && options.engine === 'simulated' ? 'engine (simulated)' : part;
  // Ready: the store and the engine both answer, so this instance can take and run jobs.
  const ready = async (_request: unknown, reply: FastifyReply) => {
    const status = await options.readiness();
    const down = Object.entries(status).filter(([, state]) => state !== 'reachable');
    return down.length === 0
      ? reply.send({
          ok: true,
          data: { ...status, engine_type: options.engine, dispatcher: options.dispatching() },
        })
      : reply.code(503).send({
          ok: false,
          message: down.map(([part, state]) => `${named(part)}: ${state}`).join('; '),
        });
  };
  app.get('/readyz', ready);
  // The name earlier releases used; kept for the probes and scripts that call it.
  app.get('/v1/health', ready);

  if (options.metricsOnApiPort) metricsRoute(app, options.metrics);
}

/** GET /metrics in Prometheus's text format, on the API's app or on a listener of its own. */
export function metricsRoute(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.get('/metrics', async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.text()),
  );
}
