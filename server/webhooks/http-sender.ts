import { createHmac } from 'node:crypto';
import { lookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptOutcome } from '../jobs/webhook-records';
import type { WebhookSender } from '../jobs/ports';

const SECRET_PREFIX = 'whsec_';

type Outcome = AttemptOutcome & { delivered: boolean };

/**
 * Standard Webhooks' signature (https://www.standardwebhooks.com): HMAC-SHA256, keyed with the
 * secret's bytes, over `<id>.<timestamp>.<body>`, in base64 after `v1,`.
 */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Why an address may not be connected to, or undefined when it may (address-policy.ts). */
type AddressCheck = (address: string) => string | undefined;

class RefusedAddressError extends Error {
  readonly code = 'EREFUSEDADDRESS';
}

/**
 * DNS as usual, but an address the policy refuses fails the connection: checked on the address
 * connected to, so a name cannot resolve to a public address at a check and an internal one at
 * the connection (DNS rebinding).
 */
function checkingLookup(refusesAddress: AddressCheck): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true } as LookupAllOptions, (error, found) => {
      if (error) return callback(error, '', 0);
      for (const { address } of found) {
        const why = refusesAddress(address);
        if (!why) continue;
        const message = `${hostname} resolves to ${address}, ${why}`;
        return callback(new RefusedAddressError(message), '', 0);
      }
      if ((options as { all?: boolean }).all) {
        return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, found);
      }
      const [first] = found;
      callback(null, first!.address, first!.family);
    });
  };
}

/** Why a request got no answer, in words a delivery log can show. */
function reasonOf(error: unknown, timeoutMs: number): string {
  const { name, code, message } = error as { name?: string; code?: string; message?: string };
  if (name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  if (name === 'AbortError') return 'the instance stopped';
  if (code === 'EREFUSEDADDRESS') return message ?? 'refused address';
  return code ? `could not connect (${code})` : 'could not connect';
}

function outcomeOf(response: IncomingMessage, latencyMs: number): Outcome {
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) return { delivered: true, status, latencyMs, error: null };
  const location = response.headers.location;
  const error =
    status >= 300 && status < 400
      ? `answered ${status}: redirects are not followed${location ? ` (to ${location.slice(0, 200)})` : ''}`
      : `answered ${status}`;
  return { delivered: false, status, latencyMs, error };
}

/**
 * Sends a webhook's request with Node's http client. Redirects are not followed: the request goes
 * only to the address configured, and a 3xx is a failed attempt naming where it pointed. The
 * answer's body is not read: a receiver cannot make the service hold its bytes.
 */
export function httpWebhookSender(refusesAddress: AddressCheck): WebhookSender {
  const lookupChecked = checkingLookup(refusesAddress);
  return {
    send({ url, id, body, secret, timeoutMs, signal }) {
      const timestamp = Math.floor(Date.now() / 1000);
      const started = performance.now();
      const target = new URL(url);
      const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
      return new Promise<Outcome>((resolve) => {
        const sending = request(target, {
          method: 'POST',
          lookup: lookupChecked,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'Jobdeck-Webhooks',
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatureOf(secret, id, timestamp, body),
          },
        });
        // Timers of its own: a timeout signal combined with AbortSignal.any can be collected
        // before it fires on Node 20, and the request then waits for the receiver forever.
        const cut = (name: string) => () =>
          sending.destroy(Object.assign(new Error(name), { name }));
        const timer = setTimeout(cut('TimeoutError'), timeoutMs);
        const stop = cut('AbortError');
        signal.addEventListener('abort', stop, { once: true });
        const settle = (outcome: Outcome) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', stop);
          resolve(outcome);
        };
        sending.once('response', (response) => {
          settle(outcomeOf(response, Math.round(performance.now() - started)));
          response.destroy();
        });
        sending.once('error', (error) => {
          settle({
            delivered: false,
            status: null,
            latencyMs: null,
            error: reasonOf(error, timeoutMs),
          });
        });
        if (signal.aborted) stop();
        sending.end(body);
      });
    },
  };
}
