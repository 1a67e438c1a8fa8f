import { existsSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import httpProxy from '@fastify/http-proxy';

export interface ConsoleServerOptions {
  distDir: string;
  apiUrl: string;
  /** Injected when the browser sends no key, so a long-lived key never sits in the browser. */
  apiKey: string | undefined;
}

/**
 * Serves the built console and proxies /v1 to the service, the same arrangement as the
 * dev server. It answers on loopback by default: whoever reaches it acts with the injected key.
 */
export async function buildConsoleServer(options: ConsoleServerOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(httpProxy, {
    upstream: options.apiUrl,
    prefix: '/v1',
    rewritePrefix: '/v1',
    replyOptions: {
      rewriteRequestHeaders: (_request, headers) =>
        headers.authorization || !options.apiKey
          ? headers
          : { ...headers, authorization: `Bearer ${options.apiKey}` },
    },
  });
  if (existsSync(options.distDir)) {
    await app.register(fastifyStatic, { root: options.distDir, wildcard: false });
    // Deep links (/jobs/:id) are the SPA's to route.
    app.setNotFoundHandler((_request, reply) => reply.sendFile('index.html'));
  } else {
    app.get('/', async (_request, reply) =>
      reply
        .type('text/plain')
        .send('The console is not built: run "npm run build", or "npm start".'),
    );
  }
  return app;
}
