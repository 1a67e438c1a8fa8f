import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JobSecrets } from '../../server/jobs/job-secrets';
import { LogTail } from '../../server/runtime/log-tail';
import { AesGcmSecretBox } from '../../server/secrets/secret-box';

const box = new AesGcmSecretBox(randomBytes(32));
const SECRET = 'correct-horse-battery-staple';
const secrets = new JobSecrets(
  {
    env: [
      { name: 'TOKEN', sealed: box.seal(SECRET) },
      { name: 'PLAIN', value: 'visible' },
    ],
  },
  box,
);

describe('secrets in what the engine says', () => {
  it('are scrubbed from messages raw, JSON-escaped and Go-quoted', () => {
    const withControl = new JobSecrets(
      { env: [{ name: 'K', sealed: box.seal('a"b\tc\u0001') }] },
      box,
    );
    expect(withControl.scrub('raw a"b\tc\u0001 json a\\"b\\tc\\u0001 go a\\"b\\tc\\x01')).toBe(
      'raw [K redacted] json [K redacted] go [K redacted]',
    );
    expect(secrets.scrub('visible stays')).toBe('visible stays');
  });

  it('are redacted before the output is cut, so no part of one survives at the edge', () => {
    const output = Buffer.from(`start ${SECRET} middle ${SECRET} end\n`);
    // Every cut of the output, as the engine's tail would give it.
    for (let from = 1; from < output.length; from += 1) {
      const raw = output.subarray(from);
      const { text, truncated } = secrets.redactTail(raw, true, 20);
      expect(truncated).toBe(true);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(20);
      for (let length = 4; length <= SECRET.length; length += 1) {
        for (let at = 0; at + length <= SECRET.length; at += 1) {
          expect(text, `cut at ${from}`).not.toContain(SECRET.slice(at, at + length));
        }
      }
    }
  });

  it('leave output shorter than the tail whole, redacted', () => {
    expect(secrets.redactTail(Buffer.from(`x ${SECRET} y`), false, 1000)).toEqual({
      text: 'x [TOKEN redacted] y',
      truncated: false,
    });
  });
});

describe('a log tail', () => {
  it('keeps only the last bytes of any amount of output, in bounded memory', async () => {
    const sink = new LogTail(10);
    for (let i = 0; i < 10_000; i += 1) sink.write(Buffer.from(`line ${i}\n`));
    await new Promise((r) => sink.end(r));
    const { bytes, truncated } = sink.tail();
    expect(bytes.toString()).toBe('line 9999\n');
    expect(truncated).toBe(true);
  });
});
