import type { z } from 'zod';
import { errorBodySchema } from '../../contract';
import { readApiKey } from '../lib/api-key';

export type ApiErrorKind = 'http' | 'network' | 'bad-response';

/** Every failed call: the HTTP status (0 when the service was not reached) and the server's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly kind: ApiErrorKind = 'http',
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/**
 * One request to the service. Throws ApiError on every non-2xx, on network loss and on a body
 * that does not match the contract; returns the parsed body otherwise.
 */
export async function apiRequest<S extends z.ZodType>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  schema: S,
  body?: unknown,
): Promise<z.infer<S>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const key = readApiKey();
  if (key) headers.Authorization = `Bearer ${key}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'The service could not be reached (network error).', 'network');
  }
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

/** Headers for a request made without apiRequest (the stream): the key typed in Settings, if any. */
export function streamHeaders(): Record<string, string> {
  const key = readApiKey();
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  if (key) headers.Authorization = `Bearer ${key}`;
  return headers;
}
