import { isIP } from 'node:net';
import { z } from 'zod';
import { positiveInt } from './fields';

/** `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`: what a trusted proxy is named by. */
function isAddressOrNetwork(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export const trustedProxiesSection = z
  .array(z.string().refine(isAddressOrNetwork, 'must be an IP address or a CIDR network'))
  .default([])
  .describe(
    "Reverse proxies whose X-Forwarded-For is believed (addresses or CIDRs, e.g. 127.0.0.1 or 10.0.0.0/8): the client's address is the first one from the right that is not listed; empty: every client is the address it connects from",
  );

export const httpTimeoutsSection = z
  .strictObject({
    headers_seconds: positiveInt
      .default(10)
      .describe('For the request line and headers (408 past it)'),
    request_seconds: positiveInt
      .default(30)
      .describe('For the whole request, body included (408 past it)'),
    keep_alive_seconds: positiveInt
      .default(5)
      .describe('An idle keep-alive connection is closed after this'),
  })
  .refine((t) => t.headers_seconds <= t.request_seconds, {
    message: 'headers_seconds: must not exceed request_seconds',
  })
  .prefault({})
  .describe(
    'How long a client may take: a slow or stalled one is cut, so it cannot hold a connection',
  );

export const eventsSection = z
  .strictObject({
    streams_per_key: positiveInt
      .default(4)
      .describe('Streams one API key may hold open at once on one instance; more get a 429'),
    heartbeat_seconds: positiveInt
      .default(15)
      .describe('A comment line this often, so that proxies keep an idle stream open'),
  })
  .prefault({})
  .describe('The event stream extension');

export const metricsSection = z
  .strictObject({
    on_api_port: z
      .boolean()
      .default(false)
      .describe(
        '/metrics on the API port, beside the API (it takes no key and names projects and queues)',
      ),
    port: z
      .number()
      .int()
      .min(0)
      .max(65535)
      .optional()
      .describe('A listener of its own for /metrics, on metrics.host (0: any free port)'),
    host: z
      .string()
      .default('127.0.0.1')
      .describe('Where metrics.port listens: loopback unless Prometheus scrapes from elsewhere'),
  })
  .prefault({})
  .describe('Prometheus metrics: off unless asked for, on the API port or on a port of their own');
