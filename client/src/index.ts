/**
 * @jobdeck/client: a typed client for the whole Jobdeck API. The paths, parameters and answers
 * are openapi-typescript's types of the service's OpenAPI document (api-types.ts, generated);
 * the calls are openapi-fetch's. What this module adds: the key on every call, one error type
 * carrying the service's own message, and the event stream followed across reconnects.
 */
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './api-types';

export type { paths, components } from './api-types';
export { followEvents, type JobEvent, type FollowEventsOptions } from './events';
export { baseUrlOf, type JobdeckClientOptions } from './connection';
export { execInJob, type ExecEnd, type ExecOptions, type ExecSession } from './exec';
export { JobdeckApiError } from './errors';
import { baseUrlOf, type JobdeckClientOptions } from './connection';
import { JobdeckApiError } from './errors';

export type JobdeckClient = Client<paths>;

export function createJobdeckClient(options: JobdeckClientOptions): JobdeckClient {
  const client = createFetchClient<paths>({
    baseUrl: baseUrlOf(options.url),
    headers: { ...options.headers, authorization: `Bearer ${options.apiKey}` },
  });
  client.use(idempotentSubmits);
  return client;
}

/** The header that makes a Job Submit safe to send again (docs/guides/idempotency.md). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * Every Job Submit carries an Idempotency-Key: a fresh one unless the call gives its own
 * (`params: { header: { 'idempotency-key': … } }`), which is what a retry of the same submit
 * sends again. A service without the extension ignores it.
 */
const idempotentSubmits: Middleware = {
  onRequest({ request, schemaPath }) {
    if (request.method !== 'POST' || schemaPath !== '/v1/client/job') return undefined;
    if (!request.headers.has(IDEMPOTENCY_KEY_HEADER)) {
      request.headers.set(IDEMPOTENCY_KEY_HEADER, crypto.randomUUID());
    }
    return request;
  },
};

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of an `ok` answer, or a JobdeckApiError with the service's `message` (or, from
 * something that is not Jobdeck — a proxy's HTML page —, the status and its reason phrase).
 */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  const message =
    typeof error === 'object' && error !== null && 'message' in error
      ? String((error as { message: unknown }).message)
      : `HTTP ${response.status} ${response.statusText}`.trim();
  throw new JobdeckApiError(response.status, message);
}
