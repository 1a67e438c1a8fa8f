import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { showableOutput } from '../../server/jobs/job-output';
import { JobSecrets } from '../../server/jobs/job-secrets';
import { logInstantOfNanos, type LogInstant } from '../../server/jobs/log-instant';
import type { OutputLine, OutputStream } from '../../server/jobs/model';
import type { WorkloadLine } from '../../server/jobs/ports';
import { LineTail } from '../../server/runtime/line-tail';
import { AesGcmSecretBox } from '../../server/secrets/secret-box';

const box = new AesGcmSecretBox(randomBytes(32));
// Printed over three lines, as a PEM key would be.
const KEY = 'first-part-of-the-key\nBRAVO_LINE_OF_KEY\ncharlie.third';
const TOKEN = 'correct-horse-battery-staple';
const secrets = new JobSecrets(
  {
    env: [
      { name: 'KEY', sealed: box.seal(KEY) },
      { name: 'TOKEN', sealed: box.seal(TOKEN) },
    ],
  },
  box,
);
const none = new JobSecrets({ env: [] }, box);

let clock = 1_795_300_000_000_000_000n;
/** Lines as an engine keeps them, each read a little after the one before. */
function linesOf(text: string, stream: OutputStream = 'stdout'): WorkloadLine[] {
  return (text.match(/[^\n]*\n|[^\n]+$/g) ?? []).map((line) => ({
    stream,
    at: logInstantOfNanos((clock += 1000n)),
    bytes: Buffer.from(line),
  }));
}

const textOf = (lines: OutputLine[]) => lines.map((l) => l.text).join('');

/** No piece of a secret, at least `min` bytes long, in the text. */
function expectNoPieceOf(secret: string, text: string, min = 6) {
  for (let from = 0; from + min <= secret.length; from += 1) {
    expect(text).not.toContain(secret.slice(from, from + min));
  }
}

describe("a job's output as shown", () => {
  it('replaces a secret on one line, and one printed across lines, in each stream', () => {
    const lines = [
      ...linesOf(`token ${TOKEN} here\n`),
      ...linesOf(`begin\n${KEY}\nend\n`, 'stderr'),
    ];
    const { lines: shown, truncated } = showableOutput({ lines, truncated: false }, secrets, {
      after: null,
      ended: true,
      maxBytes: 10_000,
    });
    expect(truncated).toBe(false);
    expect(shown.map((l) => [l.stream, l.text])).toEqual([
      ['stdout', 'token [TOKEN redacted] here\n'],
      ['stderr', 'begin\n'],
      ['stderr', '[KEY redacted]'],
      ['stderr', ''],
      ['stderr', '\n'],
      ['stderr', 'end\n'],
    ]);
  });

  it('finds a secret split across lines of one stream with the other stream in between', () => {
    const [first, second, third] = linesOf(`${KEY}\n`, 'stderr');
    const lines = [first!, ...linesOf('progress 1\n'), second!, ...linesOf('progress 2\n'), third!];
    const { lines: shown } = showableOutput({ lines, truncated: false }, secrets, {
      after: null,
      ended: true,
      maxBytes: 10_000,
    });
    expectNoPieceOf(KEY, textOf(shown));
    expect(textOf(shown)).toContain('progress 1\n');
  });

  it('lets no part of a secret through at the start of any read, however the output was cut', () => {
    const all = linesOf(`a\n${KEY}\nb ${TOKEN}\nc\n${KEY}\n`);
    for (let start = 0; start < all.length; start += 1) {
      const window = all.slice(start);
      // Cut by the engine's tail, or read after the line before it.
      for (const after of [null, all[start - 1]?.at ?? null]) {
        const { lines } = showableOutput({ lines: window, truncated: start > 0 }, secrets, {
          after,
          ended: true,
          maxBytes: 10_000,
        });
        expectNoPieceOf(KEY, textOf(lines));
        expectNoPieceOf(TOKEN, textOf(lines));
      }
    }
  });

  it('keeps the newest bytes within the limit, and says that earlier output was left out', () => {
    const lines = linesOf('one\ntwo\nthree\n');
    const shown = showableOutput({ lines, truncated: false }, none, {
      after: null,
      ended: true,
      maxBytes: 8,
    });
    expect(shown.lines.map((l) => l.text)).toEqual(['o\n', 'three\n']);
    expect(shown.truncated).toBe(true);
  });
});

describe('following a running job', () => {
  /** Prints `output` line by line; after each line a reader asks for what is new. */
  function follow(output: WorkloadLine[], check: (shown: string) => void): string {
    let after: LogInstant | null = null;
    let seen = '';
    for (let printed = 1; printed <= output.length + 1; printed += 1) {
      const ended = printed > output.length;
      const available = output.slice(0, printed).filter((l) => after === null || l.at > after);
      const { lines, truncated } = showableOutput({ lines: available, truncated: false }, secrets, {
        after,
        ended,
        maxBytes: 10_000,
      });
      expect(truncated).toBe(false);
      check(textOf(lines));
      seen += textOf(lines);
      after = lines.at(-1)?.at ?? after;
    }
    return seen;
  }

  it('repeats no line the engine wrote after a later-stamped line of the other stream', () => {
    // Docker stamps a line before writing it, one goroutine a stream: "err" is stamped after
    // "out" but written first, so the engine's order is not the stamps' order.
    const [out] = linesOf('out\n');
    const [err] = linesOf('err\n', 'stderr');
    const written = [err!, out!];
    const first = showableOutput({ lines: written, truncated: false }, none, {
      after: null,
      ended: false,
      maxBytes: 100,
    });
    expect(first.lines.map((l) => l.text)).toEqual(['out\n', 'err\n']);
    const after = first.lines.at(-1)!.at;
    const again = written.filter((l) => l.at > after);
    expect(again).toEqual([]);
  });

  it('holds back a possible start of a secret until it is settled, losing and repeating nothing', () => {
    const output = [
      ...linesOf(`start\n${KEY}\n`),
      ...linesOf('an error\n', 'stderr'),
      ...linesOf(`first-part-of-the-key\nnot the rest\n${TOKEN}\nend`),
    ];
    // The key's first line is printed once on its own: only what follows shows it is not the key.
    const seen = follow(output, (shown) => {
      expectNoPieceOf(KEY.slice(KEY.indexOf('\n') + 1), shown);
      expectNoPieceOf(TOKEN, shown);
    });
    const whole = showableOutput({ lines: output, truncated: false }, secrets, {
      after: null,
      ended: true,
      maxBytes: 10_000,
    });
    expect(seen).toBe(textOf(whole.lines));
    expect(seen).toBe(
      'start\n[KEY redacted]\nan error\nfirst-part-of-the-key\nnot the rest\n[TOKEN redacted]\nend',
    );
  });

  it('holds back what could be the first line of a secret until the next line settles it', () => {
    const [decoy, rest] = linesOf('first-part-of-the-key\nnot the rest\n');
    const read = (lines: WorkloadLine[]) =>
      textOf(
        showableOutput({ lines, truncated: false }, secrets, {
          after: null,
          ended: false,
          maxBytes: 100,
        }).lines,
      );
    expect(read([decoy!])).toBe('');
    expect(read([decoy!, rest!])).toBe('first-part-of-the-key\nnot the rest\n');
  });

  it('shows a line only once it has ended, and a last line without a newline at the end', () => {
    const [partial] = linesOf('50%');
    const running = showableOutput({ lines: [partial!], truncated: false }, none, {
      after: null,
      ended: false,
      maxBytes: 100,
    });
    expect(running.lines).toEqual([]);
    const ended = showableOutput({ lines: [partial!], truncated: false }, none, {
      after: null,
      ended: true,
      maxBytes: 100,
    });
    expect(textOf(ended.lines)).toBe('50%');
  });
});

describe('a line tail', () => {
  it('keeps only the newest whole lines of any amount of output, in bounded memory', () => {
    const tail = new LineTail(22);
    for (let i = 0; i < 100_000; i += 1) tail.add(linesOf(`line ${i}\n`)[0]!);
    const { lines, truncated } = tail.tail(false);
    expect(lines.map((l) => l.bytes.toString())).toEqual(['line 99998\n', 'line 99999\n']);
    expect(truncated).toBe(true);
  });

  it('keeps the newest line even when it alone is longer than the limit', () => {
    const tail = new LineTail(4);
    tail.add(linesOf('ab\n')[0]!);
    tail.add(linesOf('longer than four\n')[0]!);
    expect(tail.tail(false).lines.map((l) => l.bytes.toString())).toEqual(['longer than four\n']);
  });
});
