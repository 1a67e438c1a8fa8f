export type ApiErrorKind = 'http' | 'network' | 'bad-response';

/**
 * Every failed call: the HTTP status (0 when the service was not reached) and the server's
 * message. Apart from the client so the shell can tell a 401 without loading the contract's
 * schemas.
 */
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
