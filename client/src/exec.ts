import WebSocket from 'ws';
import { baseUrlOf, type JobdeckClientOptions } from './connection';
import { JobdeckApiError } from './errors';

/** What to run in the job (docs/guides/exec.md). */
export interface ExecOptions {
  /** The program and its arguments; no shell unless it names one. */
  command: string[];
  /** A terminal (one output stream, resizable) for a person; none for a script. */
  tty?: boolean;
  size?: { cols: number; rows: number };
}

/** How the session ended: the command's exit code (null: the engine could not tell it), or why it was closed. */
export type ExecEnd = { exitCode: number | null } | { closed: string };

/** A command running in a job: send it input, hear its output, learn how it ended. */
export interface ExecSession {
  write(bytes: Uint8Array): void;
  /** Its stdin ends. */
  endInput(): void;
  resize(size: { cols: number; rows: number }): void;
  /** Ends it from this side. */
  close(): void;
  /** Resolves when the service closed the session. */
  ended: Promise<ExecEnd>;
}

const STDERR = 2;

/**
 * Opens a session on `GET /v1/client/job/{job_id}/exec`. Rejects with the service's own error
 * (status and message) when it refuses before the upgrade.
 */
export function execInJob(
  options: JobdeckClientOptions,
  jobId: string,
  exec: ExecOptions,
  output: (stream: 'stdout' | 'stderr', bytes: Buffer) => void,
): Promise<ExecSession> {
  const query = new URLSearchParams(exec.command.map((word) => ['command', word]));
  if (exec.tty) query.set('tty', 'true');
  if (exec.size) {
    query.set('cols', String(exec.size.cols));
    query.set('rows', String(exec.size.rows));
  }
  const base = baseUrlOf(options.url).replace(/^http/, 'ws');
  const url = `${base}/v1/client/job/${encodeURIComponent(jobId)}/exec?${query}`;
  const socket = new WebSocket(url, ['jobdeck.exec'], {
    headers: { ...options.headers, authorization: `Bearer ${options.apiKey}` },
  });
  let end: ExecEnd = { closed: 'the connection to the service was lost' };
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) return output(data[0] === STDERR ? 'stderr' : 'stdout', data.subarray(1));
    const frame = JSON.parse(data.toString('utf8')) as
      { type: 'exit'; exit_code: number | null } | { type: 'closed'; message: string };
    end = frame.type === 'exit' ? { exitCode: frame.exit_code } : { closed: frame.message };
  });
  const ended = new Promise<ExecEnd>((resolve) => socket.once('close', () => resolve(end)));
  const send = (data: Uint8Array | string) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(data);
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () =>
      resolve({
        write: (bytes) => send(bytes),
        endInput: () => send(JSON.stringify({ type: 'eof' })),
        resize: (size) => send(JSON.stringify({ type: 'resize', ...size })),
        close: () => socket.close(),
        ended,
      }),
    );
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => reject(refusal(response.statusCode ?? 0, text)));
    });
    socket.once('error', reject);
  });
}

/** The service's `{ ok: false, message }`, or the status alone from something that is not Jobdeck. */
function refusal(status: number, text: string): JobdeckApiError {
  try {
    const { message } = JSON.parse(text) as { message?: string };
    if (message) return new JobdeckApiError(status, message);
  } catch {
    // a proxy's page: the status says enough
  }
  return new JobdeckApiError(status, `HTTP ${status}`);
}
