import WebSocket from 'ws';
import { EXEC_STREAM_BYTE, EXEC_SUBPROTOCOL, type ExecServerFrame } from '../../contract';

/** A refusal before the upgrade: the service's status and envelope. */
export interface ExecRefusal {
  status: number;
  body: { ok: boolean; message?: string };
}

/** What a finished session brought back. */
export interface ExecTranscript {
  stdout: string;
  stderr: string;
  /** The last text frame: `exit` or `closed`. */
  end: ExecServerFrame | null;
  closeCode: number;
}

export interface OpenExec {
  socket: WebSocket;
  /** Everything printed so far on stdout. */
  stdout(): string;
  /** Resolves when the service closes the session. */
  finished: Promise<ExecTranscript>;
}

/** The exec route's URL for `command` (one `command` parameter per word). */
export function execUrl(
  baseUrl: string,
  jobId: string,
  command: string[],
  extra: Record<string, string> = {},
): string {
  const query = new URLSearchParams([
    ...command.map((w) => ['command', w]),
    ...Object.entries(extra),
  ]);
  return `${baseUrl.replace(/^http/, 'ws')}/v1/client/job/${jobId}/exec?${query}`;
}

/**
 * Opens a session with a real WebSocket client: resolves once upgraded, or with the service's
 * refusal when it answered the upgrade with an error.
 */
export function openExec(
  url: string,
  headers: Record<string, string>,
  protocols: string[] = [EXEC_SUBPROTOCOL],
): Promise<OpenExec | ExecRefusal> {
  const socket = new WebSocket(url, protocols, { headers });
  let stdout = '';
  let stderr = '';
  let end: ExecServerFrame | null = null;
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (!isBinary) {
      end = JSON.parse(data.toString('utf8')) as ExecServerFrame;
      return;
    }
    const text = data.subarray(1).toString('utf8');
    if (data[0] === EXEC_STREAM_BYTE.stderr) stderr += text;
    else stdout += text;
  });
  const finished = new Promise<ExecTranscript>((resolve) => {
    socket.on('close', (closeCode) => resolve({ stdout, stderr, end, closeCode }));
  });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ socket, stdout: () => stdout, finished }));
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => {
        try {
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(text) as ExecRefusal['body'],
          });
        } catch {
          reject(new Error(`exec: ${response.statusCode} with a body that is not JSON: ${text}`));
        }
      });
    });
    socket.once('error', reject);
  });
}

export const isRefusal = (opened: OpenExec | ExecRefusal): opened is ExecRefusal =>
  'status' in opened;
