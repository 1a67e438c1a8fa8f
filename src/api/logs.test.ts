import { describe, expect, it } from 'vitest';
import type { JobLogs } from '../../contract';
import { MAX_LOG_LINES, mergeLogs } from './logs';

const line = (text: string, at = '2026-11-21T10:00:00.000Z') =>
  ({ stream: 'stdout', at, text }) as const;
const page = (texts: string[], next_since: string | null, truncated = false): JobLogs => ({
  text: texts.map((t) => `${t}\n`).join(''),
  truncated,
  lines: texts.map((t) => line(t)),
  next_since,
});

describe('mergeLogs', () => {
  it('appends what came after the cursor and notes when nothing more will come', () => {
    const first = mergeLogs(undefined, page(['a', 'b'], 'c1'));
    expect(first).toMatchObject({ cursor: 'c1', complete: false, timed: true });
    const second = mergeLogs(first, page(['c'], null));
    expect(second.lines.map((l) => l.text)).toEqual(['a', 'b', 'c']);
    expect(second).toMatchObject({ cursor: 'c1', complete: true });
  });

  it('shows output stored as text only, line by line without times', () => {
    const stored = mergeLogs(undefined, {
      text: 'x\ny\n',
      truncated: true,
      lines: [],
      next_since: null,
    });
    expect(stored.lines).toEqual([
      { stream: 'stdout', at: null, text: 'x' },
      { stream: 'stdout', at: null, text: 'y' },
    ]);
    expect(stored).toMatchObject({ timed: false, truncated: true, complete: true });
  });

  it('keeps at most MAX_LOG_LINES, dropping the oldest, and says so', () => {
    const many = Array.from({ length: MAX_LOG_LINES }, (_, i) => `l${i}`);
    const merged = mergeLogs(mergeLogs(undefined, page(many, 'c1')), page(['last'], 'c2'));
    expect(merged.lines).toHaveLength(MAX_LOG_LINES);
    expect(merged.lines[0]!.text).toBe('l1');
    expect(merged.lines.at(-1)!.text).toBe('last');
    expect(merged.truncated).toBe(true);
  });

  it('carries what the service kept of a cut output, and holds all of it for a download', () => {
    const many = Array.from({ length: MAX_LOG_LINES + 5 }, (_, i) => `l${i}`);
    const cut = {
      ...page(many, null, true),
      kept_lines: MAX_LOG_LINES + 5,
      total_lines: 200_000,
      kept_bytes: 900_000,
      total_bytes: 1_800_000,
    };
    const merged = mergeLogs(undefined, cut);
    expect(merged.kept).toEqual({
      lines: MAX_LOG_LINES + 5,
      totalLines: 200_000,
      bytes: 900_000,
      totalBytes: 1_800_000,
    });
    expect(merged).toMatchObject({ capped: true, truncated: true, complete: true });
    expect(mergeLogs(undefined, cut, Infinity).lines).toHaveLength(MAX_LOG_LINES + 5);
  });
});
