import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord } from '../../../../contract';
import type { AttemptsAnswer } from '../../../api/attempts';
import { renderWithService, requestedPaths, stubService } from '../../../test/service';
import { LogViewer } from './LogViewer';

const ID = '01a20274-e614-709d-917d-d51b4dc7e757';
const job = (updatedAt: string): JobRecord => ({
  id: ID,
  name: 'flaky',
  state: 'running',
  system_note: null,
  schedule_at: null,
  created_at: '2026-11-26T10:40:00.000Z',
  updated_at: updatedAt,
});
const page = (text: string, cursor: string) => ({
  text: `${text}\n`,
  truncated: false,
  lines: [{ stream: 'stdout', at: '2026-11-26T10:42:09.000Z', text }],
  next_since: cursor,
});
const onAttempt = (attempt: number): AttemptsAnswer => ({
  attempt,
  attempts_max: 3,
  retry: { attempts: 3 },
  next_attempt_at: null,
  items: Array.from({ length: attempt - 1 }, (_, i) => ({
    attempt: i + 1,
    state: 'failed' as const,
    exit_code: 1,
    reason: 'exit',
    note: null,
    node: null,
    started_at: '2026-11-26T10:41:15.000Z',
    finished_at: '2026-11-26T10:41:57.000Z',
    retried: true,
  })),
});

afterEach(() => vi.unstubAllGlobals());

describe('LogViewer of a retried job', () => {
  it("follows the next attempt's output from its start, not on from the last one's", async () => {
    let fetch = stubService([
      [/\/attempts$/, onAttempt(1)],
      [/\/logs(\?.*)?$/, page('first', '2026-11-26T10:41:56.000Z')],
    ]);
    const { rerender } = renderWithService(<LogViewer job={job('2026-11-26T10:41:15.000Z')} />);
    expect(await screen.findByTestId('log-line-count')).toHaveTextContent('1 line');
    expect(requestedPaths(fetch)).toEqual([
      `/v1/client/job/${ID}/attempts`,
      `/v1/client/job/${ID}/logs`,
    ]);

    // Attempt 1 failed; attempt 2 runs (the page saw it go runnable, then running again).
    fetch = stubService([
      [/\/attempts$/, onAttempt(2)],
      [/\/logs(\?.*)?$/, page('second', '2026-11-26T10:42:10.000Z')],
    ]);
    rerender(<LogViewer job={job('2026-11-26T10:42:08.000Z')} />);
    await vi.waitFor(() =>
      expect(requestedPaths(fetch)).toEqual([
        `/v1/client/job/${ID}/attempts`,
        `/v1/client/job/${ID}/logs`,
      ]),
    );
    expect(await screen.findByTestId('log-line-count')).toHaveTextContent('1 line');
  });
});
