import type { z } from 'zod';
import { SESSION_HEADERS, errorBodySchema, pathOf, type Operation } from '../../contract';
import { readApiKey } from '../lib/api-key';
import { ApiError } from './api-error';
import { markReachable, markUnreachable } from './reachability';
import { sessionCredentials } from './session-state';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who the request is from: a key typed in Settings wins over everything; otherwise a signed-in
 * session names its project (for the client API) and, on a change, proves the page is the
 * console's with its CSRF token (the cookie alone would be sent by any site's form too).
 * Without either, the console's server adds its own key.
 */
function credentialHeaders(method: Method, path: string): Record<string, string> {
  const key = readApiKey();
  if (key) return { Authorization: `Bearer ${key}` };
  const session = sessionCredentials();
  if (!session) return {};
  const headers: Record<string, string> = {};
  if (session.project && path.startsWith('/v1/client/'))
    headers[SESSION_HEADERS.project] = session.project;
  if (session.csrf && method !== 'GET') headers[SESSION_HEADERS.csrf] = session.csrf;
  return headers;
}

export { ApiError, isApiError, type ApiErrorKind } from './api-error';

/**
 * One request to the service. Throws ApiError on every non-2xx, on network loss and on a body
 * that does not match the contract; returns the parsed body otherwise.
 */
export async function apiRequest<S extends z.ZodType>(
  method: Method,
  path: string,
  schema: S,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<z.infer<S>> {
  const headers = {
    'Content-Type': 'application/json',
    ...extraHeaders,
    ...credentialHeaders(method, path),
  };
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    markUnreachable();
    throw new ApiError(0, 'The service could not be reached (network error).', 'network');
  }
  markReachable();
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ApiError(
      response.status,
      `The service answered ${response.status} without a JSON body.`,
      response.ok ? 'bad-response' : 'http',
    );
  }
  if (!response.ok) {
    const error = errorBodySchema.safeParse(json);
    throw new ApiError(
      response.status,
      error.success ? error.data.message : `The service answered ${response.status}.`,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError(
      response.status,
      'The service answered with a body that does not match the API.',
      'bad-response',
    );
  }
  return parsed.data;
}

/** What a request of one operation fills in: its path's parameters, a query, a body, headers. */
export interface OperationRequest {
  params?: Record<string, string>;
  query?: URLSearchParams | string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** apiRequest for one operation of the contract's table: its method, its path filled in. */
export function requestOperation<S extends z.ZodType>(
  operation: Pick<Operation, 'method' | 'path'>,
  schema: S,
  { params, query, body, headers }: OperationRequest = {},
): Promise<z.infer<S>> {
  const search = query?.toString();
  const path = `${pathOf(operation, params)}${search ? `?${search}` : ''}`;
  return apiRequest(operation.method.toUpperCase() as Method, path, schema, body, headers);
}

/**
 * Headers for a request made without apiRequest (the stream, read with fetch, so it sends them
 * like any other read): the key typed in Settings, or the session's project.
 */
export function streamHeaders(path: string): Record<string, string> {
  return { Accept: 'text/event-stream', ...credentialHeaders('GET', path) };
}
