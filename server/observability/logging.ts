import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pino, type Logger } from 'pino';

/**
 * JSON lines for a log collector (journald, a container runtime) and readable lines on a
 * terminal. Keys never reach the log; bodies are never logged at all (they can hold sensitive
 * values).
 */
export async function createLogger(level: string): Promise<Logger> {
  const options = {
    level,
    redact: [
      'req.headers.authorization',
      'req.headers.cookie',
      // The console server's proof of the addresses it forwards (http/client-address.ts).
      'req.headers["x-jobdeck-console-proof"]',
    ],
  };
  if (!process.stdout.isTTY) return pino(options);
  // Only loaded for a terminal, and optional (npm install --omit=optional leaves it out): JSON
  // lines then. Synchronous in this thread, so a line is out before an exit.
  const pretty = await import('pino-pretty').then(
    (module) => module.default,
    () => null,
  );
  if (!pretty) return pino(options);
  return pino(
    options,
    pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true }),
  );
}

/** What a proxy's X-Request-Id may look like to be reused; anything else gets an id of ours. */
const FORWARDED_ID = /^[\w.:-]{1,64}$/;

/**
 * The id on every log line of a request, echoed in X-Request-Id and quoted by 5xx answers: a
 * reverse proxy's id when it sent a plain one (so its log and ours line up), else a new UUID.
 */
export function requestIdOf(request: IncomingMessage): string {
  const forwarded = request.headers['x-request-id'];
  return typeof forwarded === 'string' && FORWARDED_ID.test(forwarded) ? forwarded : randomUUID();
}
