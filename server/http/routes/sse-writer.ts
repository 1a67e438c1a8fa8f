import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Stream text encoded once: as an HTTP/1.1 chunk, and bare (for a client without chunks). */
export interface SseBytes {
  chunked: Buffer;
  plain: Buffer;
}

export function sseBytes(text: string): SseBytes {
  const body = Buffer.from(text, 'utf8');
  const head = `${body.length.toString(16)}\r\n`;
  const chunked = Buffer.allocUnsafe(head.length + body.length + 2);
  chunked.write(head, 0, 'latin1');
  body.copy(chunked, head.length);
  chunked.write('\r\n', head.length + body.length, 'latin1');
  return { chunked, plain: chunked.subarray(head.length, head.length + body.length) };
}

/**
 * An event stream's response, written straight to its socket with bytes framed beforehand.
 * Through `ServerResponse.write`, each write is four pieces (size, CRLF, data, CRLF) gathered
 * into a `writev` on the next tick, per stream: the fan-out spent most of its time there. Here a
 * page that many streams send is encoded and framed once, and each stream's send is one buffer,
 * one `write` call. The response still sends the headers and ends the body (the last chunk).
 */
export class SseWriter {
  private readonly socket: Socket | null;
  private readonly chunked: boolean;

  constructor(
    private readonly raw: ServerResponse,
    headers: OutgoingHttpHeaders,
  ) {
    raw.writeHead(200, headers);
    raw.flushHeaders();
    this.socket = raw.socket;
    // An HTTP/1.0 client gets no chunks: its body ends with the connection.
    this.chunked = raw.chunkedEncoding;
  }

  /** Whether the socket holds more than it accepts without waiting: its client is not reading. */
  get blocked(): boolean {
    return this.socket === null || this.socket.writableNeedDrain;
  }

  /** Bytes accepted but not yet handed to the kernel (what a client that stopped reading holds). */
  get buffered(): number {
    return this.socket?.writableLength ?? 0;
  }

  /** Writes; false when the caller should wait for `drained` before the next write. */
  write(bytes: SseBytes): boolean {
    if (this.socket === null || this.socket.destroyed) return false;
    return this.socket.write(this.chunked ? bytes.chunked : bytes.plain);
  }

  /** Resolves once the socket has room again, or is gone. */
  drained(): Promise<void> {
    const socket = this.socket;
    if (socket === null || socket.destroyed || !socket.writableNeedDrain) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        socket.off('drain', done);
        socket.off('close', done);
        resolve();
      };
      socket.on('drain', done);
      socket.on('close', done);
    });
  }

  end(): void {
    this.raw.end();
  }
}
