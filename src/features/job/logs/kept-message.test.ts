import { describe, expect, it } from 'vitest';
import type { FollowedLogs } from '../../../api/logs';
import { keptMessage } from './kept-message';

const logs = (fields: Partial<FollowedLogs>): FollowedLogs => ({
  lines: [],
  truncated: false,
  kept: null,
  capped: false,
  cursor: null,
  complete: true,
  timed: true,
  ...fields,
});

describe('keptMessage', () => {
  it('says nothing when all of the output is there', () => {
    expect(keptMessage(logs({}))).toBeNull();
  });

  it('says how many lines and bytes the service kept of those printed', () => {
    const kept = { lines: 6053, totalLines: 15000, bytes: 612_000, totalBytes: 1_500_000 };
    expect(keptMessage(logs({ truncated: true, kept }))).toBe(
      'The service kept the last 6,053 of 15,000 lines (597.7 KiB of 1.4 MiB).',
    );
  });

  it('tells a tail left out while the job runs from one the service cut', () => {
    expect(keptMessage(logs({ truncated: true, complete: false }))).toMatch(
      /^Earlier output is left out while the job runs/,
    );
    expect(keptMessage(logs({ truncated: true }))).toBe('Only the end of the output was kept.');
  });

  it('says when the page holds fewer lines than were kept, and that the download has them', () => {
    expect(keptMessage(logs({ truncated: true, capped: true }))).toBe(
      'The page shows the newest 100,000 lines; Download has all that was kept.',
    );
  });
});
