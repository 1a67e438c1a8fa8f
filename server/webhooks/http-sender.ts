import { createHmac } from 'node:crypto';
import type { WebhookSender } from '../jobs/ports';

const SECRET_PREFIX = 'whsec_';

/**
 * Standard Webhooks' signature (https://www.standardwebhooks.com): HMAC-SHA256, keyed with the
 * secret's bytes, over `<id>.<timestamp>.<body>`, in base64 after `v1,`.
 */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Why a request got no answer, in words a delivery log can show. */
function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  if (error instanceof Error && error.name === 'AbortError') return 'the instance stopped';
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code ? `could not connect (${cause.code})` : 'could not connect';
}

/**
 * Sends a webhook's request with Node's fetch. Redirects are not followed: the request goes only
 * to the address configured, and a 3xx is a failed attempt naming where it pointed.
 */
export const httpWebhookSender: WebhookSender = {
  async send({ url, id, body, secret, timeoutMs, signal }) {
    const timestamp = Math.floor(Date.now() / 1000);
    const started = performance.now();
    try {
      const response = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Jobdeck-Webhooks',
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureOf(secret, id, timestamp, body),
        },
        body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
      const latencyMs = Math.round(performance.now() - started);
      // The answer's body is not read: a receiver cannot make the service hold its bytes.
      await response.body?.cancel().catch(() => undefined);
      const { status } = response;
      if (status >= 200 && status < 300) {
        return { delivered: true, status, latencyMs, error: null };
      }
      const location = response.headers.get('location');
      const error =
        status >= 300 && status < 400
          ? `answered ${status}: redirects are not followed${location ? ` (to ${location.slice(0, 200)})` : ''}`
          : `answered ${status}`;
      return { delivered: false, status, latencyMs, error };
    } catch (error) {
      return { delivered: false, status: null, latencyMs: null, error: reasonOf(error, timeoutMs) };
    }
  },
};
