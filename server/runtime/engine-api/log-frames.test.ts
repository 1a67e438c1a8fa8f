import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLogTail } from './log-frames';

function frame(stream: number, text: string): Buffer {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header.writeUInt8(stream, 0);
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

/** The bytes cut into chunks of `size`, as a socket may deliver them: headers split too. */
const chunked = (bytes: Buffer, size: number) =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
      bytes.subarray(i * size, (i + 1) * size),
    ),
  );

describe('reading an Engine API log stream', () => {
  const stream = Buffer.concat([
    frame(1, 'out one\n'),
    frame(2, 'err one\n'),
    frame(3, 'Error grabbing logs: node abc is not available\n'),
    frame(1, 'out two\n'),
  ]);

  it('keeps stdout and stderr in order and leaves out the engine own stream-3 words', async () => {
    for (const size of [1, 3, 7, 8, 9, 1000]) {
      const tail = await readLogTail(chunked(stream, size), 1000);
      expect(tail.bytes.toString(), `chunks of ${size}`).toBe('out one\nerr one\nout two\n');
      expect(tail.truncated).toBe(false);
    }
  });

  it('keeps only the last maxBytes and says that earlier output was left out', async () => {
    const tail = await readLogTail(chunked(stream, 5), 10);
    expect(tail.bytes.toString()).toBe('e\nout two\n');
    expect(tail.truncated).toBe(true);
  });
});
