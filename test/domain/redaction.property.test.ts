import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SHORTEST_HIDDEN_REST, showableOutput } from '../../server/jobs/job-output';
import { JobSecrets } from '../../server/jobs/job-secrets';
import { logInstantOfNanos, type LogInstant } from '../../server/jobs/log-instant';
import type { OutputLine } from '../../server/jobs/model';
import { readEngineOutput, type EngineLogsQuery } from '../../server/runtime/engine-output';
import { AesGcmSecretBox } from '../../server/secrets/secret-box';

/**
 * Redaction must hold for any cut of any stream. This drives the real reader (frames parsed from
 * a byte stream cut into arbitrary chunks, the engine's `tail` and `since`, the kept tail) and
 * the real redaction over an engine that behaves as Docker's does: lines split at newlines, a
 * longer line cut into 16 KiB pieces, each piece with its own time. A secret of 1 to 70,000
 * bytes is placed at and around every boundary the reader has: a piece's end, the kept tail's
 * start, a line's end, the `since` cursor. Whatever is read, stored or followed, no piece of the
 * secret of SHORTEST_HIDDEN_REST bytes or more survives, and no whole secret of any length.
 */

const PIECE_BYTES = 16 * 1024;
const MAX_BYTES = 64 * 1024;
const box = new AesGcmSecretBox(randomBytes(32));

// The secret's alphabet shares nothing with the filler ("A", "B", newlines) or the marker
// ("[TOK redacted]"), so any of its pieces found in the output came from the secret.
const SECRET_CHARS = '0123456789xyzq';

interface Piece {
  at: LogInstant;
  bytes: Buffer;
}

/** The engine's log of one stream: lines at newlines, long ones cut into pieces, each timed. */
function engineLog(text: string): Piece[] {
  const pieces: Piece[] = [];
  let nanos = 1_795_300_000_000_000_000n;
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    const bytes = Buffer.from(line);
    for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
      pieces.push({
        at: logInstantOfNanos((nanos += 1000n)),
        bytes: bytes.subarray(at, at + PIECE_BYTES),
      });
    }
  }
  return pieces;
}

/**
 * The logs endpoint over those pieces: `since` inclusive, the last `tail` lines (all without
 * one), any chunking.
 */
function logsEndpoint(pieces: Piece[], chunkBytes: number) {
  return (query: EngineLogsQuery) => {
    const since = query.since === undefined ? undefined : sinceInstant(query.since);
    const chosen = pieces
      .filter((p) => since === undefined || p.at >= since)
      .slice(-(query.tail ?? pieces.length));
    const frames = Buffer.concat(
      chosen.map((piece) => {
        const payload = Buffer.concat([Buffer.from(`${piece.at} `), piece.bytes]);
        const header = Buffer.alloc(8);
        header[0] = 1;
        header.writeUInt32BE(payload.length, 4);
        return Buffer.concat([header, payload]);
      }),
    );
    const chunks: Buffer[] = [];
    for (let at = 0; at < frames.length; at += chunkBytes)
      chunks.push(frames.subarray(at, at + chunkBytes));
    return Promise.resolve(Readable.from(chunks));
  };
}

function sinceInstant(since: string): LogInstant {
  const [seconds = '0', nanos = '0'] = since.split('.');
  return logInstantOfNanos(BigInt(seconds) * 1_000_000_000n + BigInt(nanos));
}

const textOf = (lines: OutputLine[]) => lines.map((line) => line.text).join('');

/**
 * Nothing of the secret shown: no run of SHORTEST_HIDDEN_REST or more of its characters (nothing
 * else in the output is made of them), and not the whole of a shorter one.
 */
function expectNothingOf(secret: string, text: string) {
  const runs = new RegExp(`[${SECRET_CHARS}]{${SHORTEST_HIDDEN_REST},}`, 'g');
  expect(text.match(runs) ?? []).toEqual([]);
  expect(text.includes(secret)).toBe(false);
}

/** The output as a finished job's stored tail, and as one read after every possible cursor. */
async function everyRead(pieces: Piece[], secrets: JobSecrets, chunkBytes: number) {
  const open = logsEndpoint(pieces, chunkBytes);
  const reads: string[] = [];
  // Cursors at and around every piece holding part of the secret, and none.
  const near = (index: number) =>
    pieces
      .slice(Math.max(0, index - 2), index + 3)
      .some((piece) => new RegExp(`[${SECRET_CHARS}]`).test(piece.bytes.toString()));
  const cursors = pieces.filter((_, index) => near(index)).map((piece) => piece.at);
  for (const after of [null, ...cursors]) {
    const output = await readEngineOutput(open, { after, maxBytes: MAX_BYTES });
    for (const ended of [true, false]) {
      reads.push(
        textOf(showableOutput(output, secrets, { after, ended, maxBytes: MAX_BYTES }).lines),
      );
    }
  }
  // The output kept once the job ended: everything the engine holds gone through, the tail kept.
  const whole = await readEngineOutput(open, { after: null, maxBytes: MAX_BYTES, whole: true });
  const kept = showableOutput(whole, secrets, { after: null, ended: true, maxBytes: MAX_BYTES });
  reads.push(textOf(kept.lines));
  return reads;
}

/** The output as a console follows a running job: each read from the last line shown. */
async function followed(pieces: Piece[], secrets: JobSecrets, chunkBytes: number) {
  let shown = '';
  let after: LogInstant | null = null;
  for (let printed = 1; printed <= pieces.length; printed += 1) {
    const ended = printed === pieces.length;
    const open = logsEndpoint(pieces.slice(0, printed), chunkBytes);
    const output = await readEngineOutput(open, { after, maxBytes: MAX_BYTES });
    const { lines } = showableOutput(output, secrets, { after, ended, maxBytes: MAX_BYTES });
    shown += textOf(lines);
    after = lines.at(-1)?.at ?? after;
  }
  return shown;
}

const secretOf = (length: number, seed: number) =>
  Array.from({ length }, (_, i) => SECRET_CHARS[(i * 7 + seed * 13 + ((i * i) % 5)) % 14]).join('');

/**
 * The sensitive value and a stream printing it at `offset` from a boundary: a piece's end (a
 * line of filler running into it), the kept tail's start (enough output after it to push its
 * start out of the 64 KiB) or a line's end (the value is printed over two lines, as a PEM key is:
 * it holds a newline at `offset`).
 */
function printed(secret: string, offset: number, boundary: Boundary) {
  const filler = (n: number) => 'A'.repeat(Math.max(0, n));
  const lines = (count: number) => `${'B'.repeat(1000)}\n`.repeat(count);
  switch (boundary) {
    case 'piece':
      return { value: secret, text: `${filler(PIECE_BYTES - offset)}${secret}\n${lines(50)}` };
    case 'tail':
      return {
        value: secret,
        text: `${lines(3)}${filler(offset)}${secret}\n${lines(Math.ceil(MAX_BYTES / 1001) - 1)}`,
      };
    case 'line': {
      const value = `${secret.slice(0, offset)}\n${secret.slice(offset)}`;
      return { value, text: `${lines(2)}${value}\n${lines(2)}` };
    }
  }
}

type Boundary = 'piece' | 'tail' | 'line';

describe('redaction at every cut of the output', () => {
  it('reproduces the reported leak: a 40-byte secret across the 16 KiB piece, its first piece out of the tail', async () => {
    const secret = secretOf(40, 1);
    const secrets = new JobSecrets({ env: [{ name: 'TOK', sealed: box.seal(secret) }] }, box);
    const text = `${'A'.repeat(16_364)}${secret}\n${`${'B'.repeat(1000)}\n`.repeat(50)}`;
    const pieces = engineLog(text);
    const output = await readEngineOutput(logsEndpoint(pieces, 65_536), {
      after: null,
      maxBytes: MAX_BYTES,
    });
    expect(output.truncated).toBe(true);
    const stored = showableOutput(output, secrets, {
      after: null,
      ended: true,
      maxBytes: MAX_BYTES,
    });
    expect(stored.lines[0]!.text).toBe('[TOK redacted]\n');
    expectNothingOf(secret, textOf(stored.lines));
  });

  it('holds for secrets of 1 to 70,000 bytes at and around every boundary, in every read', async () => {
    const lengths = fc.oneof(
      fc.constantFrom(1, 3, 4, 5, 39, 40, 41, 1023, 16_383, 16_384, 16_385, 32_769, 70_000),
      fc.integer({ min: 1, max: 70_000 }),
    );
    await fc.assert(
      fc.asyncProperty(
        lengths,
        fc.nat(),
        fc.constantFrom<Boundary>('piece', 'tail', 'line'),
        fc.oneof(fc.constantFrom(1, 3, 8, 9, 100, 16_393), fc.integer({ min: 1, max: 70_000 })),
        fc.integer({ min: 0, max: 13 }),
        async (length, offsetSeed, boundary, chunkBytes, seed) => {
          const secret = secretOf(length, seed);
          // At, just before and just after the boundary, and anywhere within the secret.
          const offsets = [0, 1, length - 1, length, length + 1, offsetSeed % (length + 2)];
          const offset = offsets[offsetSeed % offsets.length]!;
          const { value, text } = printed(secret, Math.min(offset, length), boundary);
          const secrets = new JobSecrets({ env: [{ name: 'TOK', sealed: box.seal(value) }] }, box);
          const pieces = engineLog(text);
          for (const read of await everyRead(pieces, secrets, chunkBytes)) {
            expectNothingOf(secret, read);
          }
          expectNothingOf(secret, await followed(pieces, secrets, chunkBytes));
        },
      ),
      { numRuns: 40 },
    );
    // CPU-bound: 40 s alone on two cores, longer beside the suite's other files (Vitest runs three).
  }, 300_000);

  it('keeps ordinary text: only a rest of SHORTEST_HIDDEN_REST bytes or more is taken for a cut secret', () => {
    const secrets = new JobSecrets({ env: [{ name: 'TOK', sealed: box.seal('xyz0e') }] }, box);
    const pieces = engineLog('e is shown\n0e is shown\nz0e is shown\nyz0e is not\n');
    for (const piece of pieces) {
      const { lines } = showableOutput(
        { lines: [{ stream: 'stdout', at: piece.at, bytes: piece.bytes }], truncated: true },
        secrets,
        { after: null, ended: true, maxBytes: MAX_BYTES },
      );
      expect(textOf(lines)).toBe(
        piece.bytes.toString().startsWith('yz0e')
          ? '[TOK redacted] is not\n'
          : piece.bytes.toString(),
      );
    }
  });
});
