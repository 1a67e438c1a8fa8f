import { EngineUnavailableError } from '../../jobs/ports';

/** What dockerode rejects with: an HTTP answer of the Engine API, or a failed connection. */
interface EngineApiError {
  statusCode?: number;
  code?: string;
  message?: string;
  json?: { message?: string } | null;
}

export const statusOf = (error: unknown) => (error as EngineApiError).statusCode;

/** The engine's own words for the error, or the connection's. */
export function detailOf(error: unknown): string {
  const e = error as EngineApiError;
  return e.json?.message ?? e.message ?? String(error);
}

// The engine's socket is gone, refused, cut, or the request timed out.
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'EACCES',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ETIMEDOUT',
]);
// What a stopping or restarting engine answers with (seen here: a create during a graceful stop
// got "grpc: the client connection is closing"); none of them is the job's fault.
const STOPPING =
  /client connection is closing|transport is closing|connection refused|context canceled|shutting down|socket hang up|timeout/i;

/**
 * The error as "the engine is away" (retry later, blame no job) when it is one, for every
 * adapter that speaks the Engine API; undefined when the engine answered for itself.
 *
 * @param endpoint where the engine was called, for the message (unix:///… or tcp://…)
 */
export function unavailability(
  error: unknown,
  endpoint: string,
): EngineUnavailableError | undefined {
  const e = error as EngineApiError;
  const detail = detailOf(error);
  if (
    (e.code && UNREACHABLE_CODES.has(e.code)) ||
    (e.statusCode === undefined && STOPPING.test(detail))
  ) {
    return new EngineUnavailableError(
      `the container engine is unreachable at ${endpoint} (${e.code ?? detail})`,
    );
  }
  if (e.statusCode !== undefined && e.statusCode >= 500 && STOPPING.test(detail)) {
    return new EngineUnavailableError(`the container engine is stopping or restarting (${detail})`);
  }
  return undefined;
}
