import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The dev server proxies /v1 to the service and adds the API key on the server side, so a
 * long-lived key never sits in the browser. A key set in the console's Settings wins.
 */
function devApiKey(): string | undefined {
  if (process.env.JOBDECK_API_KEY) return process.env.JOBDECK_API_KEY;
  const file = resolve(import.meta.dirname, 'data', 'console.key');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

export default defineConfig({
  plugins: [react()],
  server: {
    port: Number(process.env.JOBDECK_CONSOLE_PORT ?? 5173),
    proxy: {
      '/v1': {
        target: process.env.JOBDECK_API_URL ?? 'http://127.0.0.1:8080',
        configure: (proxy) => {
          proxy.on('proxyReq', (request) => {
            const key = devApiKey();
            if (key && !request.getHeader('authorization'))
              request.setHeader('authorization', `Bearer ${key}`);
          });
        },
      },
    },
  },
  build: { sourcemap: false, chunkSizeWarningLimit: 600 },
});
