import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type HTTPMethods,
} from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import type { z } from 'zod';
import type { SubmitJobRequest } from '../../contract';
import type { AuditTrail } from '../jobs/audit';
import type { BulkActions } from '../jobs/bulk-actions';
import type { ChangeFeed } from '../jobs/change-feed';
import type { JobService } from '../jobs/job-service';
import type { JobReadModel } from '../jobs/read-model';
import type { QueueControls } from '../jobs/queue-controls';
import type { Scheduler } from '../jobs/scheduler';
import type { TrendsReader } from '../jobs/trends';
import type { KeyStore, MemberStore, ViewStore } from '../store/ports';
import { authenticate, principalOf, type Credentials } from './auth';
import { memberRoutes } from './routes/members';
import { signInRoutes, type SignInRouteOptions } from './routes/sign-in';
import { installAuditTrail } from './audit';
import { installClientAddress, trustProxyOption } from './client-address';
import { documentedPath, enforceRouteRoles } from './route-roles';
import { ZOD_ONLY } from './parse';
import { ANY_QUERY, enforceQuerySchemas } from './query-rule';
import { HttpError, installDraining, installErrorHandling, sendError } from './errors';
import {
  API_SECURITY_HEADERS,
  answerExpectationsInEnvelope,
  answerMalformedInEnvelope,
  cutStalledConnectionsOnClose,
  hardenedServerOptions,
  refuseLongPathParameters,
  type HttpTimeouts,
} from './hardening';
import { installJsonParser } from './json-body';
import { methodsByPath, recordRoutes } from './route-log';
import type { PositionCodec } from './positions';
import { eventRoutes } from './routes/events';
import { execRoutes, type ExecRoutesOptions } from './routes/exec';
import { extensionRoutes } from './routes/extensions';
import { jobRoutes } from './routes/jobs';
import { keyRoutes } from './routes/keys';
import { requestIdOf } from '../observability/logging';
import type { ServiceMetrics } from '../observability/metrics';
import type { DiskFullWatch } from '../store/disk-full';
import { auditRoutes } from './routes/audit';
import { bulkActionRoutes } from './routes/bulk-actions';
import { resubmitRoutes } from './routes/resubmit';
import { failureRoutes } from './routes/failures';
import { metaRoutes, type ReadinessCheck } from './routes/meta';
import { trendRoutes } from './routes/trends';
import { hostRoutes, type HostsReader } from './routes/hosts';
import { shareRoutes, type SharesReader } from './routes/shares';
import { viewRoutes } from './routes/views';
import { webhookRoutes } from './routes/webhooks';
import type { Webhooks } from '../jobs/webhooks';

/** What the extensions need beyond the spec's operations. */
export interface ExtensionOptions {
  feed: ChangeFeed;
  /** Event ids and list cursors, opaque per project. */
  positions: PositionCodec;
  streamsPerKey: number;
  heartbeatMs: number;
  webhooks: Webhooks;
  /** The console's sign-in; null: keys only. */
  signIn: Omit<SignInRouteOptions, 'failures'> | null;
  /** Commands in running jobs, over a WebSocket. */
  exec: ExecRoutesOptions;
}

export interface HttpAppOptions {
  service: JobService;
  reads: JobReadModel;
  scheduler: Scheduler;
  controls: QueueControls;
  bulk: BulkActions;
  trends: TrendsReader;
  hosts: HostsReader;
  shares: SharesReader;
  keys: KeyStore;
  members: MemberStore;
  views: ViewStore;
  /** Where the routes record who changed what (recorded whether or not the extensions serve it). */
  audit: AuditTrail;
  submitSchema: z.ZodType<SubmitJobRequest>;
  bodyLimitBytes: number;
  rateLimitPerMinute: number;
  authFailuresPerMinute: number;
  /** Proxies whose X-Forwarded-For names the client (config `trusted_proxies`). */
  trustedProxies: readonly string[];
  /** What the console server of this process proves itself with; undefined: no console. */
  consoleProof: string | undefined;
  timeouts: HttpTimeouts;
  logger: FastifyBaseLogger;
  readiness: ReadinessCheck;
  /** The package's version, as `/v1/client/whoami` tells it. */
  version: string;
  /** The engine's kind (docker, swarm, simulated), as whoami and readiness name it. */
  engine: string;
  /** Whether this instance dispatches (readiness says so). */
  dispatching: () => boolean;
  /** Disk-full errors of requests: a 503 that says so, and readiness too for a while. */
  storeDisk: DiskFullWatch;
  metrics: ServiceMetrics;
  /** /metrics beside the API (config `metrics.on_api_port`). */
  metricsOnApiPort: boolean;
  /** Null: the spec's three operations only; every extension answers 404 like an unknown path. */
  extensions: ExtensionOptions | null;
}

/** Every method a request can reach a route with (Fastify's own list, HEAD aside: GET's). */
const METHODS: HTTPMethods[] = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'QUERY',
];

export async function buildHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...ZOD_ONLY,
    ...hardenedServerOptions(options.timeouts),
    bodyLimit: options.bodyLimitBytes,
    loggerInstance: options.logger,
    // Per-request lines only when debugging: at info the log says what happened to jobs.
    logController: new LogController({
      disableRequestLogging: !['debug', 'trace'].includes(options.logger.level),
    }),
    // Fastify's own answer while closing is outside the envelope; installDraining gives ours.
    return503OnClosing: false,
    genReqId: requestIdOf,
    trustProxy: trustProxyOption(options.trustedProxies),
  });
  installClientAddress(app, options.consoleProof);
  installJsonParser(app);
  installErrorHandling(app, options.bodyLimitBytes, options.storeDisk);
  answerExpectationsInEnvelope(app);
  answerMalformedInEnvelope(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(API_SECURITY_HEADERS).header('x-request-id', request.id);
  });
  installDraining(app);
  refuseLongPathParameters(app);
  installAuditTrail(app, options.audit);
  cutStalledConnectionsOnClose(app);

  enforceQuerySchemas(app);
  recordRoutes(app);

  options.metrics.instrumentHttp(app);
  metaRoutes(app, { ...options, openApi: options.extensions !== null });
  await app.register(cookie);
  await app.register(rateLimit, { global: false });
  // Before the routes: its onRoute hook makes the exec route's WebSocket handler.
  if (options.extensions) await app.register(websocket);
  // One count of failures per address for guessed keys and guessed passwords alike.
  const failedAuth =
    options.authFailuresPerMinute > 0
      ? {
          limiter: app.createRateLimit({
            max: options.authFailuresPerMinute,
            timeWindow: 60_000,
            keyGenerator: (request) => request.clientAddress,
          }),
          max: options.authFailuresPerMinute,
        }
      : undefined;
  const signIn = options.extensions?.signIn ?? null;
  const credentials: Credentials = { keys: options.keys, consoleSessions: signIn };
  if (signIn) signInRoutes(app, { ...signIn, failures: failedAuth });
  await app.register(async (client) => {
    client.addHook('onRequest', authenticate(credentials, failedAuth));
    enforceRouteRoles(client);
    if (options.rateLimitPerMinute > 0) {
      client.addHook(
        'preHandler',
        client.rateLimit({
          max: options.rateLimitPerMinute,
          timeWindow: 60_000,
          keyGenerator: (request) => principalOf(request).keyId,
          errorResponseBuilder: (_request, context) =>
            new HttpError(
              429,
              `rate limit: at most ${context.max} requests per minute per API key; retry after ${context.after}`,
            ),
        }),
      );
    }
    jobRoutes(client, {
      service: options.service,
      submitSchema: options.submitSchema,
      idempotencyKeys: options.extensions !== null,
    });
    if (options.extensions) {
      extensionRoutes(client, options.reads, {
        scheduler: options.scheduler,
        controls: options.controls,
        version: options.version,
        engine: options.engine,
        positions: options.extensions.positions,
        exec: options.extensions.exec,
      });
      eventRoutes(client, {
        reads: options.reads,
        credentials,
        metrics: options.metrics,
        ...options.extensions,
      });
      viewRoutes(client, options.views);
      bulkActionRoutes(client, options.bulk);
      resubmitRoutes(client, options.service);
      failureRoutes(client, options.reads);
      webhookRoutes(client, options.extensions.webhooks);
      trendRoutes(client, options.trends);
      hostRoutes(client, options.hosts);
      shareRoutes(client, options.shares);
      keyRoutes(client, options.keys);
      memberRoutes(client, options.members);
      auditRoutes(client, { trail: options.audit, positions: options.extensions.positions });
      execRoutes(client, options.extensions.exec);
    }
  });

  // A known path with another method is a 405 that says which methods it takes.
  for (const [url, methods] of methodsByPath(app.registeredRoutes)) {
    const others = METHODS.filter((m) => !methods.has(m));
    const allow = [...methods].filter((m) => m !== 'HEAD').join(', ');
    if (others.length === 0) continue;
    app.route({
      method: others,
      url,
      config: { query: ANY_QUERY, methodNotAllowed: true },
      handler: (request, reply) =>
        sendError(
          reply.header('allow', allow),
          405,
          `method: ${request.method} is not allowed on ${documentedPath(url)}; it takes ${allow}`,
        ),
    });
  }
  return app;
}
