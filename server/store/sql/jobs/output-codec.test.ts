import { describe, expect, it } from 'vitest';
import type { OutputLine } from '../../../jobs/model';
import { packOutput, unpackOutput } from './output-codec';

const line = (i: number): OutputLine => ({
  stream: i % 2 === 0 ? 'stdout' : 'stderr',
  at: `2026-12-07T22:03:22.${String(123456789 + i)}Z`,
  text: `line ${i} of a job's output`,
});

describe('packOutput', () => {
  it('stores a line or two as it is, in a stream every Brotli decoder reads', async () => {
    for (const lines of [[line(0)], [line(0), line(1)], [{ ...line(0), text: '' }]]) {
      const packed = await packOutput(lines);
      const json = JSON.stringify(lines.map((l) => [l.stream, l.at, l.text]));
      // No encoder ran: the JSON is there verbatim, four bytes of framing around it.
      expect(packed.length).toBe(Buffer.byteLength(json) + 4);
      expect(packed.subarray(3, -1).toString()).toBe(json);
      expect(await unpackOutput(packed)).toEqual(lines);
    }
  });

  it('compresses what is longer, and reads it back', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => line(i));
    const packed = await packOutput(lines);
    expect(packed.length).toBeLessThan(JSON.stringify(lines).length / 4);
    expect(await unpackOutput(packed)).toEqual(lines);
  });

  it('reads back an output of every length around the line between the two', async () => {
    for (let length = 200; length < 300; length += 1) {
      const lines = [{ ...line(0), text: 'x'.repeat(length - 40) }];
      expect(await unpackOutput(await packOutput(lines))).toEqual(lines);
    }
  });
});
