import { describe, expect, it } from 'vitest';
import type { LogLine } from '../../../api/logs';
import { logFileText, matchingLines, splitOnMatches } from './log-search';

const line = (text: string, at: string | null = null): LogLine => ({ stream: 'stdout', at, text });

describe('log search', () => {
  it('finds lines ignoring case and splits a line around every match', () => {
    const lines = [line('Starting'), line('error: disk full'), line('ERROR again'), line('done')];
    expect(matchingLines(lines, 'error')).toEqual([1, 2]);
    expect(matchingLines(lines, '')).toEqual([]);
    expect(splitOnMatches('an Error and error', 'error')).toEqual([
      'an ',
      'Error',
      ' and ',
      'error',
      '',
    ]);
  });

  it('writes a file with times and streams only when asked and known', () => {
    const lines = [line('a', '2026-11-21T10:00:00.000Z'), line('b')];
    expect(logFileText(lines, true)).toBe('2026-11-21T10:00:00.000Z stdout a\nb\n');
    expect(logFileText(lines, false)).toBe('a\nb\n');
    expect(logFileText([], true)).toBe('');
  });
});
