import { CSRF_SUBPROTOCOL_PREFIX, EXEC_LIMITS, EXEC_SUBPROTOCOL } from '../../../../contract/exec';

/** What a terminal runs: every image has a POSIX `sh`, not every one has bash. */
const SHELL = 'sh';

/** How a terminal's session ended. */
export type TerminalEnd =
  /** The shell exited by itself (`exit`, Ctrl-D); null when the engine could not tell its code. */
  | { kind: 'exited'; exitCode: number | null }
  /** The service ended it and said why (the job ended, most often). */
  | { kind: 'closed'; message: string }
  /** It never opened: the service refused the upgrade (a browser is not told why) or was away. */
  | { kind: 'refused' }
  /** It opened, then the connection went without a last word. */
  | { kind: 'lost' };

export interface TerminalSize {
  cols: number;
  rows: number;
}

const side = (n: number) => Math.min(Math.max(Math.round(n), 1), EXEC_LIMITS.maxTerminalSide);

/** The exec route's WebSocket URL on the page's own origin (the console's server forwards it). */
export function execSocketUrl(
  page: Pick<Location, 'protocol' | 'host'>,
  jobId: string,
  size: TerminalSize,
): string {
  const scheme = page.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = new URLSearchParams({
    command: SHELL,
    tty: 'true',
    cols: String(side(size.cols)),
    rows: String(side(size.rows)),
  });
  return `${scheme}//${page.host}/v1/client/job/${encodeURIComponent(jobId)}/exec?${query}`;
}

/** A browser cannot set headers on a WebSocket: a signed-in session offers its CSRF token here. */
export function execProtocols(csrf: string | null): string[] {
  return csrf ? [EXEC_SUBPROTOCOL, `${CSRF_SUBPROTOCOL_PREFIX}${csrf}`] : [EXEC_SUBPROTOCOL];
}

/**
 * The cookie that names a signed-in session's project for requests that carry no header (the
 * service reads it when the project header is absent): without it a member of several projects
 * would open the socket in their first one.
 */
export const projectCookie = (project: string) =>
  `jobdeck_project=${encodeURIComponent(project)}; path=/; samesite=strict`;

export interface ExecConnection {
  /** Keys typed, as the terminal gives them. */
  send(data: string): void;
  resize(size: TerminalSize): void;
  /** Leaves the session (the shell gets SIGHUP); no end is reported for it. */
  close(): void;
}

export interface ExecHandlers {
  onOpen(): void;
  /** What the shell printed (a terminal has one stream: the stream byte is dropped). */
  onOutput(bytes: Uint8Array): void;
  onEnd(end: TerminalEnd): void;
}

/** The session's last text frame, if it is one of the two the service sends. */
function endFrame(text: string): TerminalEnd | null {
  try {
    const frame = JSON.parse(text) as { type?: unknown; exit_code?: unknown; message?: unknown };
    if (frame.type === 'exit')
      return {
        kind: 'exited',
        exitCode: typeof frame.exit_code === 'number' ? frame.exit_code : null,
      };
    if (frame.type === 'closed' && typeof frame.message === 'string')
      return { kind: 'closed', message: frame.message };
  } catch {
    // Not JSON: not a frame of this protocol; the close that follows says the rest.
  }
  return null;
}

/** Joins a terminal to a command in a job over `socket` (docs/guides/exec.md's frames). */
export function connectExec(socket: WebSocket, handlers: ExecHandlers): ExecConnection {
  const encoder = new TextEncoder();
  let opened = false;
  let end: TerminalEnd | null = null;
  let left = false;
  socket.binaryType = 'arraybuffer';
  socket.onopen = () => {
    opened = true;
    handlers.onOpen();
  };
  socket.onmessage = ({ data }: MessageEvent<ArrayBuffer | string>) => {
    if (typeof data === 'string') end ??= endFrame(data);
    else handlers.onOutput(new Uint8Array(data, 1));
  };
  socket.onclose = () => {
    if (left) return;
    handlers.onEnd(end ?? (opened ? { kind: 'lost' } : { kind: 'refused' }));
  };
  const whenOpen = (send: () => void) => {
    if (socket.readyState === WebSocket.OPEN) send();
  };
  return {
    send: (data) => whenOpen(() => socket.send(encoder.encode(data))),
    resize: ({ cols, rows }) =>
      whenOpen(() =>
        socket.send(JSON.stringify({ type: 'resize', cols: side(cols), rows: side(rows) })),
      ),
    close: () => {
      left = true;
      socket.close(1000);
    },
  };
}

/** What the panel says once the session is over, in words. */
export function endWords(end: TerminalEnd, jobState: string): string {
  switch (end.kind) {
    case 'exited':
      return end.exitCode === null
        ? 'The shell ended; its exit code is unknown.'
        : `The shell exited with code ${end.exitCode}.`;
    case 'closed':
      return end.message.startsWith('job:')
        ? 'The job ended, and the terminal with it.'
        : `The service closed the terminal: ${end.message}`;
    case 'refused':
      return jobState === 'running'
        ? 'The terminal could not connect: the service refused it or could not be reached. Try again.'
        : `The job is ${jobState}: a shell runs only in a running job.`;
    case 'lost':
      return 'The connection to the terminal was lost; the shell was ended. Open it again to go on.';
  }
}
