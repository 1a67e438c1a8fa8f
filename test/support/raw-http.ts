import { connect, type Socket } from 'node:net';

export interface RawExchange {
  /** Everything the server wrote before it closed (or before the wait ran out). */
  text: string;
  /** The status code of the first response, or null when none came. */
  status: number | null;
  /** The JSON body of the first response, when it had one. */
  body: unknown;
  /** Milliseconds from connecting until the server closed the connection; null if it did not. */
  closedAfterMs: number | null;
}

function parse(whole: string): Pick<RawExchange, 'status' | 'body'> {
  // An interim "100 Continue" comes before the response itself.
  const text = whole.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
  const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
  const [, rest = ''] = text.split('\r\n\r\n');
  let body: unknown;
  try {
    body = rest ? JSON.parse(rest) : undefined;
  } catch {
    body = undefined;
  }
  return { status: status ? Number(status) : null, body };
}

/**
 * Speaks HTTP by hand, as a hostile client would: `steps` are written in order, a number between
 * them is a pause in milliseconds. Resolves when the server closes the connection or `waitMs`
 * has passed since connecting, whichever comes first; the socket is destroyed then.
 */
export function rawExchange(
  url: string,
  steps: (string | Buffer | number)[],
  waitMs: number,
): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket: Socket = connect(Number(port), hostname);
    let closedAfterMs: number | null = null;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ text, ...parse(text), closedAfterMs });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => {
      closedAfterMs = Date.now() - started;
      finish();
    });
    // A reset after the server answered and closed is an ordinary end here.
    socket.on('error', (error) => (chunks.length > 0 ? undefined : reject(error)));
    socket.once('connect', async () => {
      for (const step of steps) {
        if (socket.destroyed) return;
        if (typeof step === 'number') await new Promise((r) => setTimeout(r, step));
        else socket.write(step);
      }
    });
  });
}

/** A request head as a client would send it; `extra` lines go after Host. */
export function requestHead(method: string, path: string, extra: string[] = []): string {
  return [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...extra, '', ''].join('\r\n');
}
