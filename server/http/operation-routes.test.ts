import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATIONS, submitJobSchema } from '../../contract';
import { buildHttpApp } from './app';
import { routePath } from './operation-route';

/** Routes that are not operations of the client API: the document itself, probes, redirects. */
const OUTSIDE_THE_TABLE = ['GET /v1/openapi.json', 'GET /v1/health'];

/** A dependency the routes take but never call while they are registered. */
const notCalled = new Proxy({}, { get: () => () => undefined });

let app: FastifyInstance;
beforeAll(async () => {
  const unused = notCalled as never;
  app = await buildHttpApp({
    service: unused,
    reads: unused,
    scheduler: unused,
    controls: unused,
    bulk: unused,
    trends: unused,
    hosts: unused,
    shares: unused,
    keys: unused,
    members: unused,
    views: unused,
    audit: unused,
    submitSchema: submitJobSchema,
    bodyLimitBytes: 1024,
    rateLimitPerMinute: 0,
    authFailuresPerMinute: 0,
    trustedProxies: [],
    consoleProof: undefined,
    timeouts: { headers_seconds: 5, request_seconds: 5, keep_alive_seconds: 5 },
    logger: pino({ level: 'silent' }),
    readiness: unused,
    version: 'test',
    engine: 'fake',
    dispatching: () => false,
    storeDisk: unused,
    metrics: unused,
    metricsOnApiPort: false,
    extensions: {
      feed: unused,
      positions: unused,
      streamsPerKey: 1,
      heartbeatMs: 1000,
      webhooks: unused,
      signIn: { sessions: unused, cookie: unused, mode: unused, oidc: null },
      exec: { exec: unused, enabledIn: new Set() },
    },
  });
  await app.ready();
});
afterAll(() => app?.close());

const served = () =>
  app.registeredRoutes.filter(
    (route) => route.method !== 'HEAD' && !route.methodNotAllowed && route.url.startsWith('/v1/'),
  );

it('registers a route for every operation of the table, at its method and path', () => {
  const registered = served().map(({ method, url }) => `${method} ${url}`);
  const missing = OPERATIONS.map(
    ({ method, path }) => `${method.toUpperCase()} ${routePath(path)}`,
  ).filter((operation) => !registered.includes(operation));
  expect(missing).toEqual([]);
});

it('registers no /v1 route that the table lacks', () => {
  const outside = served()
    .filter(({ operation }) => !operation || !OPERATIONS.includes(operation))
    .map(({ method, url }) => `${method} ${url}`);
  expect(outside).toEqual(OUTSIDE_THE_TABLE);
});

it("serves each route with its own operation's declaration", () => {
  for (const { method, url, operation } of served()) {
    if (!operation) continue;
    expect(`${method} ${url}`).toBe(
      `${operation.method.toUpperCase()} ${routePath(operation.path)}`,
    );
  }
});
