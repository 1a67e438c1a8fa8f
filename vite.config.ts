import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import {
  CONSOLE_PAGE_HEADERS,
  CSP_NONCE_PLACEHOLDER,
  authorizationFor,
  crossSiteRefusal,
} from './server/http/console-guard.ts';

/**
 * The dev server proxies /v1 to the service and adds the API key on the server side, so a
 * long-lived key never sits in the browser. A key set in the console's Settings wins.
 */
function devApiKey(): string | undefined {
  if (process.env.JOBDECK_API_KEY) return process.env.JOBDECK_API_KEY;
  const file = resolve(import.meta.dirname, 'data', 'console.key');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/**
 * The proxy acts with the key, so another site's page must not drive it: the same cross-site
 * refusal as the console server, run before Vite's proxy. (Host names are Vite's own check,
 * server.allowedHosts: loopback names and IP addresses only, which stops DNS rebinding.)
 */
function refuseCrossSiteRequests(): Plugin {
  return {
    name: 'jobdeck-refuse-cross-site-requests',
    configureServer(server) {
      server.middlewares.use('/v1', (request, response, next) => {
        const refusal = crossSiteRefusal(request);
        if (!refusal) return next();
        response.writeHead(403, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify({ ok: false, message: refusal }));
      });
    },
  };
}

/**
 * React Router's package exports only its development build (every condition names
 * dist/development), whose warnings and invariant texts a production bundle then carries: 4 KiB
 * of the first page's gzipped JS. A build takes its production build instead.
 */
const reactRouterProduction = {
  find: /^react-router$/,
  replacement: resolve(import.meta.dirname, 'node_modules/react-router/dist/production/index.mjs'),
};

export default defineConfig(({ command }) => ({
  plugins: [react(), refuseCrossSiteRequests()],
  resolve: { alias: command === 'build' ? [reactRouterProduction] : [] },
  // Vite writes a csp-nonce meta tag and nonce attributes; the console server replaces the
  // placeholder with a fresh nonce per page (server/http/console-server.ts).
  html: { cspNonce: CSP_NONCE_PLACEHOLDER },
  server: {
    port: Number(process.env.JOBDECK_CONSOLE_PORT ?? 5173),
    // No script or style policy here: React Refresh injects an inline script in development.
    headers: { ...CONSOLE_PAGE_HEADERS, 'content-security-policy': "frame-ancestors 'none'" },
    proxy: {
      '/v1': {
        target: process.env.JOBDECK_API_URL ?? 'http://127.0.0.1:8080',
        configure: (proxy) => {
          proxy.on('proxyReq', (request) => {
            const sent = authorizationFor(
              request.getHeader('authorization') as string,
              devApiKey(),
            );
            if (sent === undefined) request.removeHeader('authorization');
            else request.setHeader('authorization', sent);
          });
        },
      },
    },
  },
  // dist/server holds the compiled service (scripts/build.ts); the console is served from here.
  build: { outDir: 'dist/console', sourcemap: false, chunkSizeWarningLimit: 600 },
}));
