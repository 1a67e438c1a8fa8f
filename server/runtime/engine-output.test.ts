import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readEngineOutput, type EngineLogsQuery } from './engine-output';

function frame(stream: number, at: string, text: string): Buffer {
  const payload = Buffer.from(`${at} ${text}`);
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

const T = (second: number) => `2026-11-22T03:00:0${second}.000000001Z`;

describe('reading an Engine API log stream', () => {
  const stream = Buffer.concat([
    frame(1, T(1), 'out one\n'),
    frame(2, T(2), 'err one\n'),
    // A swarm manager's own words when it cannot reach a task's node: not the job's output.
    frame(3, T(3), 'Error grabbing logs: node abc is not available\n'),
    frame(1, T(4), 'out two\n'),
  ]);
  const text = (lines: { stream: string; bytes: Buffer }[]) =>
    lines.map((line) => `${line.stream}:${line.bytes.toString()}`).join('');

  it('keeps stdout and stderr in order with their times and leaves out stream 3', async () => {
    for (const size of [1, 3, 7, 8, 9, 1000]) {
      const output = await readEngineOutput(async () => chunked(stream, size), {
        after: null,
        maxBytes: 1000,
      });
      expect(text(output.lines), `chunks of ${size}`).toBe(
        'stdout:out one\nstderr:err one\nstdout:out two\n',
      );
      expect(output.lines.map((line) => line.at)).toEqual([T(1), T(2), T(4)]);
      expect(output.truncated).toBe(false);
    }
  });

  it('asks the engine only for lines after the cursor, one nanosecond later', async () => {
    const queries: EngineLogsQuery[] = [];
    await readEngineOutput(
      async (query) => {
        queries.push(query);
        return chunked(Buffer.alloc(0), 1);
      },
      { after: T(2), maxBytes: 1000 },
    );
    expect(queries[0]!.since).toBe(`${Date.parse('2026-11-22T03:00:02Z') / 1000}.000000002`);
  });

  it('refuses a line without a time rather than guessing one', async () => {
    const header = Buffer.alloc(8);
    header.writeUInt8(1, 0);
    header.writeUInt32BE(5, 4);
    const bad = Buffer.concat([header, Buffer.from('oops\n')]);
    await expect(
      readEngineOutput(async () => chunked(bad, 4), { after: null, maxBytes: 100 }),
    ).rejects.toThrow(/without a time/);
  });
});
