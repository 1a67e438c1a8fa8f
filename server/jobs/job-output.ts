import { redactedMarker, type JobSecrets } from './job-secrets';
import type { LogInstant } from './log-instant';
import type { ContainerLogs, OutputLine, OutputSize, OutputStream } from './model';
import type { WorkloadLine, WorkloadOutput } from './ports';

export interface OutputOptions {
  /** Only lines after this instant are shown (null: all); the engine was asked the same. */
  after: LogInstant | null;
  /** The workload has ended: no line can still grow, or complete a secret. */
  ended: boolean;
  /** At most this many bytes of text are shown, the newest. */
  maxBytes: number;
}

/**
 * Engines split output into lines at newlines and cut a longer line into pieces (Docker: at
 * 16 KiB), so a read can begin inside a secret after a newline in it, or at any byte of it where
 * a piece ends, however short the secret. A rest of a secret at a read's start is hidden when it
 * follows a newline in the secret or is at least this long: hiding every 1-3 bytes that could
 * end one would eat the start of ordinary lines (the "e" of "error"), and 3 bytes give nothing
 * away. docs/guides/logs.md states the rule.
 */
export const SHORTEST_HIDDEN_REST = 4;

/** A part of a stream's bytes that holds a secret (or may: the rest of one cut off before). */
interface Secret {
  from: number;
  to: number;
  name: string;
}

/** One stream's lines of a read, as one run of bytes. */
interface Stream {
  /** Indices of its lines in the read. */
  indices: number[];
  /** Where each of its lines starts in `bytes`. */
  starts: number[];
  bytes: Buffer;
}

/**
 * The part of a workload's output that may be shown or stored, every sensitive value replaced.
 * Secrets are looked for in each stream's bytes as a whole, so one printed across lines is
 * found too; and nothing of one survives at an edge of the read:
 * - at its start (the engine's tail, or `after`), the rest of a secret that began before it is
 *   replaced as well;
 * - at its end, while the workload runs, the bytes that could be the start of a secret still
 *   being printed (and a line not ended yet) are held back, with every later line of either
 *   stream. The next read starts after the last line shown, so nothing is lost meanwhile.
 */
export function showableOutput(
  output: WorkloadOutput,
  secrets: JobSecrets,
  { after, ended, maxBytes }: OutputOptions,
): ContainerLogs {
  const all = inTimeOrder(output.lines);
  const texts: string[] = [];
  let heldFrom: LogInstant | undefined;
  for (const stream of ['stdout', 'stderr'] as const) {
    const lines = streamOf(all, stream);
    const found = secretsIn(lines.bytes, secrets, output.truncated || after !== null);
    lines.indices.forEach((index, i) => {
      const to = lines.starts[i + 1] ?? lines.bytes.length;
      texts[index] = redactedText(lines.bytes, lines.starts[i]!, to, found);
    });
    const held = ended ? undefined : firstUnsettled(all, lines, secrets);
    if (held !== undefined && (heldFrom === undefined || held.at < heldFrom)) heldFrom = held.at;
  }
  const shown: OutputLine[] = [];
  all.forEach((line, index) => {
    if (after !== null && line.at <= after) return;
    if (heldFrom !== undefined && line.at >= heldFrom) return;
    shown.push({ stream: line.stream, at: line.at, text: texts[index]! });
  });
  const kept = lastBytes(shown, maxBytes);
  const logs = { lines: kept, truncated: output.truncated || kept !== shown };
  return output.printed
    ? { ...logs, sizes: { kept: sizeOf(kept), printed: output.printed } }
    : logs;
}

/**
 * The lines by the instant the engine read them. Docker copies stdout and stderr in a goroutine
 * each, stamping a line before it writes it to the log, so a line can be written after a
 * later-stamped line of the other stream. Readers resume after the last line shown (`after`): in
 * the engine's order a line could be shown again (seen in CI). A stable sort keeps each stream's
 * own order.
 */
function inTimeOrder(lines: readonly WorkloadLine[]): readonly WorkloadLine[] {
  const ordered = lines.every((line, i) => i === 0 || lines[i - 1]!.at <= line.at);
  return ordered ? lines : [...lines].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

function sizeOf(lines: readonly OutputLine[]): OutputSize {
  let bytes = 0;
  for (const line of lines) bytes += Buffer.byteLength(line.text);
  return { lines: lines.length, bytes };
}

function streamOf(lines: readonly WorkloadLine[], stream: OutputStream): Stream {
  const indices: number[] = [];
  const starts: number[] = [];
  const parts: Buffer[] = [];
  let offset = 0;
  lines.forEach((line, index) => {
    if (line.stream !== stream) return;
    indices.push(index);
    starts.push(offset);
    parts.push(line.bytes);
    offset += line.bytes.length;
  });
  return { indices, starts, bytes: Buffer.concat(parts) };
}

/**
 * Every place a form of a secret occurs, overlapping ones merged, in order; with `cutBefore`,
 * also a start that could be the rest of one cut off by the read's start.
 */
function secretsIn(bytes: Buffer, secrets: JobSecrets, cutBefore: boolean): Secret[] {
  const found: Secret[] = [];
  for (const form of secrets.forms) {
    for (let at = bytes.indexOf(form.bytes); at !== -1; at = bytes.indexOf(form.bytes, at + 1)) {
      found.push({ from: at, to: at + form.bytes.length, name: form.name });
    }
    if (cutBefore) {
      // A read that begins inside a secret ends with the secret's end (its rest), or inside it
      // too: a secret longer than what a read keeps, or one still being printed.
      const inside = bytes.length >= SHORTEST_HIDDEN_REST && form.bytes.includes(bytes);
      const rest = inside ? bytes.length : longestRestAtStart(bytes, form.bytes);
      if (rest > 0) found.push({ from: 0, to: rest, name: form.name });
    }
  }
  found.sort((a, b) => a.from - b.from || b.to - a.to);
  const merged: Secret[] = [];
  for (const secret of found) {
    const last = merged.at(-1);
    if (last && secret.from < last.to) last.to = Math.max(last.to, secret.to);
    else merged.push({ ...secret });
  }
  return merged;
}

/** The length of the longest end of `secret` a read could begin with that `bytes` begins with. */
function longestRestAtStart(bytes: Buffer, secret: Buffer): number {
  for (let cut = 1; cut < secret.length; cut += 1) {
    const rest = secret.subarray(cut);
    if (rest.length < SHORTEST_HIDDEN_REST && secret[cut - 1] !== 0x0a) continue;
    if (bytes.subarray(0, rest.length).equals(rest)) return rest.length;
  }
  return 0;
}

/**
 * The first line of the stream that may still change: one not ended yet, or the one where the
 * bytes to the end could be the start of a secret still being printed. Every such start is
 * looked at, even inside what was already replaced: a secret's start can also look like the rest
 * of one cut off before the read, and holding a line back loses nothing.
 */
function firstUnsettled(
  all: readonly WorkloadLine[],
  stream: Stream,
  secrets: JobSecrets,
): WorkloadLine | undefined {
  const { bytes, starts, indices } = stream;
  const lineAt = (offset: number) => all[indices[starts.findLastIndex((s) => s <= offset)]!];
  const from = Math.max(0, bytes.length - secrets.margin + 1);
  for (let at = from; at < bytes.length; at += 1) {
    const rest = bytes.subarray(at);
    const begins = (form: Buffer) =>
      form.length > rest.length && rest.equals(form.subarray(0, rest.length));
    if (secrets.forms.some((f) => begins(f.bytes))) return lineAt(at);
  }
  const last = indices.length > 0 ? all[indices.at(-1)!] : undefined;
  return last && last.bytes.at(-1) !== 0x0a ? last : undefined;
}

/** A line's text with each secret in it replaced by its marker (where the secret begins). */
function redactedText(bytes: Buffer, from: number, to: number, found: readonly Secret[]): string {
  const parts: string[] = [];
  let at = from;
  for (const secret of found) {
    if (secret.to <= from || secret.from >= to) continue;
    if (secret.from >= at) {
      parts.push(bytes.subarray(at, secret.from).toString('utf8'), redactedMarker(secret.name));
    }
    at = Math.max(at, Math.min(secret.to, to));
  }
  parts.push(bytes.subarray(at, to).toString('utf8'));
  return parts.join('');
}

/** The newest lines holding at most `maxBytes` of text; the oldest kept may lose its start. */
function lastBytes(lines: OutputLine[], maxBytes: number): OutputLine[] {
  let size = 0;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!;
    const length = Buffer.byteLength(line.text);
    if (size + length > maxBytes) {
      const room = maxBytes - size;
      const bytes = Buffer.from(line.text);
      const cut =
        room > 0 ? [{ ...line, text: bytes.subarray(bytes.length - room).toString() }] : [];
      return [...cut, ...lines.slice(i + 1)];
    }
    size += length;
  }
  return lines;
}
