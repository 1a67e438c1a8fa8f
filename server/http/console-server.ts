import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import fastifyStatic from '@fastify/static';
import httpProxy from '@fastify/http-proxy';
import type { ClientOptions } from 'ws';
import {
  CONSOLE_PAGE_HEADERS,
  CSP_NONCE_PLACEHOLDER,
  allowedHostNames,
  authorizationFor,
  consolePolicy,
  crossSiteRefusal,
  hostNameOf,
  newNonce,
} from './console-guard';
import { SESSION_HEADERS } from '../../contract';
import { csrfSubprotocol } from './auth';
import { consoleForwardingHeaders, trustProxyOption } from './client-address';
import { API_SECURITY_HEADERS, envelope } from './hardening';
import { ZOD_ONLY } from './parse';
import type { SignInMode } from '../auth/sign-in-mode';

export interface ConsoleServerOptions {
  distDir: string;
  apiUrl: string;
  /**
   * Injected when the browser sends no key, so a long-lived key never sits in the browser: only
   * while nobody signs in (the embedded default on loopback); then each person's session acts.
   */
  apiKey: string | undefined;
  signInMode: () => Promise<SignInMode>;
  /** The address the console listens on; with loopback names, the Host headers it accepts. */
  listenHost: string;
  /** More Host names to accept, for a console reached under a name of its own. */
  extraHostNames: readonly string[];
  /** Proxies in front of the console whose X-Forwarded-For names the browser. */
  trustedProxies: readonly string[];
  /** Vouches to the API for the browser's address (see client-address.ts). */
  consoleProof: string;
}

const PRECOMPRESSED_TWIN = /\.(br|gz)$/;

const PROVIDER_NAVIGATIONS = /^\/v1\/auth\/oidc\/(start|callback)(\?|$)/;

function refuse(reply: FastifyReply, status: number, message: string) {
  return reply
    .code(status)
    .headers(API_SECURITY_HEADERS)
    .type('application/json')
    .send(envelope(message));
}

/**
 * Serves the built console and proxies /v1 to the service, the same arrangement as the dev server.
 * Whoever reaches it acts with the injected key, so it answers only under its own host names and
 * forwards no request that another site's page made.
 */
export async function buildConsoleServer(options: ConsoleServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...ZOD_ONLY,
    logger: false,
    trustProxy: trustProxyOption(options.trustedProxies),
  });
  const hostNames = allowedHostNames(options.listenHost, options.extraHostNames);
  // The key for each proxied request, decided before it is forwarded (the mode is looked up).
  const injectedKey = new WeakMap<object, string | undefined>();

  app.addHook('onRequest', async (request, reply) => {
    if (!hostNames.has(hostNameOf(request.headers.host))) {
      return refuse(reply, 421, `Host: this console answers only to ${[...hostNames].join(', ')}`);
    }
    // Pages may be opened from anywhere (a link); only the proxy carries the key.
    if (!request.url.startsWith('/v1')) return;
    // The identity provider sends the browser back from its own site: the callback is checked by
    // the state the starting browser holds, and neither route acts with the console's key.
    const refusal = PROVIDER_NAVIGATIONS.test(request.url) ? null : crossSiteRefusal(request);
    if (refusal) return refuse(reply, 403, refusal);
    injectedKey.set(
      request.raw,
      (await options.signInMode()) === 'local' ? options.apiKey : undefined,
    );
  });
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    return refuse(
      reply,
      status,
      status >= 500
        ? `service: the console could not reach the API (${error.code ?? 'error'})`
        : error.message,
    );
  });

  // @fastify/http-proxy's WebSocket client takes rewriteRequestHeaders (its README), which its
  // types (ws's ClientOptions) do not list.
  const wsClientOptions: ClientOptions & { rewriteRequestHeaders: unknown } = {
    rewriteRequestHeaders: (_headers: unknown, request: FastifyRequest) => {
      const sent = authorizationFor(request.headers.authorization, injectedKey.get(request.raw));
      // The proxy offers the API only the subprotocol it chose: the token goes as the header.
      const csrf = csrfSubprotocol(request);
      const kept = {
        ...(request.headers.cookie && { cookie: request.headers.cookie }),
        ...(sent !== undefined && { authorization: sent }),
        ...(csrf !== undefined && { [SESSION_HEADERS.csrf]: csrf }),
      };
      return consoleForwardingHeaders(kept, request.ip, options.consoleProof);
    },
  };
  await app.register(httpProxy, {
    upstream: options.apiUrl,
    prefix: '/v1',
    rewritePrefix: '/v1',
    // A terminal in a job (the exec route): the upgrade passes the same checks as any request.
    websocket: true,
    wsClientOptions,
    replyOptions: {
      rewriteRequestHeaders: (request, { authorization, ...received }) => {
        const headers = consoleForwardingHeaders(received, request.ip, options.consoleProof);
        const sent = authorizationFor(authorization, injectedKey.get(request.raw));
        return sent === undefined ? headers : { ...headers, authorization: sent };
      },
    },
  });

  const indexFile = join(options.distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.get('/', async (_request, reply) =>
      reply
        .type('text/plain')
        .send('The console is not built: run "npm run build", or "npm start".'),
    );
    return app;
  }
  const indexHtml = readFileSync(indexFile, 'utf8');
  const hashedAssets = join(resolve(options.distDir), 'assets', sep);
  await app.register(fastifyStatic, {
    root: options.distDir,
    wildcard: false,
    index: false,
    // The page itself always goes through the handler below, which gives it its nonce; the
    // compressed twins are sent only in answer to their file's own name.
    allowedPath: (path) => path !== '/index.html' && !PRECOMPRESSED_TWIN.test(path),
    // The build's brotli and gzip twins (scripts/precompress.ts), chosen by Accept-Encoding.
    preCompressed: true,
    // Set below instead: send's own header would override setHeaders' with max-age=0.
    cacheControl: false,
    setHeaders: (response, path) => {
      response.setHeader('vary', 'accept-encoding');
      // A file under assets/ is named by its content hash, so it never changes; the others
      // (the icon, zod-config.js) keep their names across upgrades and are checked each time.
      response.setHeader(
        'cache-control',
        path.startsWith(hashedAssets) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/v1')) return; // the API's own headers pass through
    reply.headers(CONSOLE_PAGE_HEADERS);
    // Scripts, styles and the icon are never documents of their own: they get no powers at all.
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', API_SECURITY_HEADERS['content-security-policy']);
    }
  });
  // Every page (deep links like /jobs/:id are the SPA's to route) with a nonce of its own.
  app.setNotFoundHandler((_request, reply) => {
    const nonce = newNonce();
    return reply
      .headers({ 'content-security-policy': consolePolicy(nonce), 'cache-control': 'no-store' })
      .type('text/html; charset=utf-8')
      .send(indexHtml.replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
  });
  return app;
}
