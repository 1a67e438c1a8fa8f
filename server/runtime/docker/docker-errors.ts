import { EngineUnavailableError, RuntimeError } from '../../jobs/ports';

interface DockerError {
  statusCode?: number;
  code?: string;
  message?: string;
  json?: { message?: string } | null;
}

export const statusOf = (error: unknown) => (error as DockerError).statusCode;

// The engine's socket is gone, refused, cut, or the request timed out.
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOENT', 'EACCES', 'ECONNRESET', 'EPIPE']);
// What a stopping or restarting engine answers with (seen here: a create during a graceful stop
// got "grpc: the client connection is closing"); none of them is the job's fault.
const STOPPING =
  /client connection is closing|transport is closing|connection refused|context canceled|shutting down|socket hang up|timeout/i;

/**
 * Engine errors become either "the engine is away" (retry later, blame no job) or a sentence a
 * user can act on, for the job's system_note.
 */
export function translate(
  error: unknown,
  action: string,
  context: { socketPath: string; image?: string },
): Error {
  const e = error as DockerError;
  const detail = e.json?.message ?? e.message ?? String(error);
  if (
    (e.code && UNREACHABLE_CODES.has(e.code)) ||
    (e.statusCode === undefined && STOPPING.test(detail))
  ) {
    return new EngineUnavailableError(
      `the container engine is unreachable at ${context.socketPath} (${e.code ?? detail})`,
    );
  }
  if (e.statusCode !== undefined && e.statusCode >= 500 && STOPPING.test(detail)) {
    return new EngineUnavailableError(`the container engine is stopping or restarting (${detail})`);
  }
  if (action === 'create' && e.statusCode === 404) {
    return new RuntimeError(
      `image ${context.image} is not on the container engine; build or load it there (docker image ls lists what is present)`,
    );
  }
  if (e.statusCode === 404) {
    return new RuntimeError(`the container vanished (removed outside Jobdeck?) during ${action}`);
  }
  return new RuntimeError(`the container engine refused to ${action} the container: ${detail}`);
}
