import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BulkAction, FailureGroup, Failures } from '../../../contract';
import { renderWithService } from '../../test/service';
import FailuresPage from './FailuresPage';

const ID_A = '0b9c1f4e-0000-4000-8000-00000000000a';
const ID_B = '0b9c1f4e-0000-4000-8000-00000000000b';
const ID_C = '0b9c1f4e-0000-4000-8000-00000000000c';

const upstream: FailureGroup = {
  count: 2,
  state: 'failed',
  exit_code: 1,
  cause: 'error: upstream returned 503',
  cause_from: 'output',
  newest: { job_id: ID_A, job_name: 'fetch-7', ended_at: '2026-12-07T09:00:00.000Z' },
  filter: { queue: 'demo::default', id: [ID_A, ID_B] },
};
const timedOut: FailureGroup = {
  count: 1,
  state: 'timeout',
  exit_code: null,
  cause: null,
  cause_from: 'note',
  newest: { job_id: ID_C, job_name: 'slow-1', ended_at: null },
  filter: { queue: 'demo::default', id: [ID_C] },
};
const failures: Failures = { examined: 3, more: false, groups: [upstream, timedOut] };

const started: BulkAction = {
  id: 'b-1',
  action: 'resubmit',
  state: 'done',
  filter: upstream.filter,
  matched: 2,
  processed: 2,
  accepted: 2,
  refused: 0,
  created_by: 'key-1',
  created_at: '2026-12-07T09:01:00.000Z',
  finished_at: '2026-12-07T09:01:01.000Z',
};

/** The service: GETs answer the groups (or the action), a POST starts the action. */
function stubFailures() {
  const gets: string[] = [];
  const posts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const answer = (data: unknown, status = 200) =>
        new Response(JSON.stringify({ ok: true, data }), { status });
      if (init?.method === 'POST') {
        posts.push(JSON.parse(String(init.body)));
        return answer(started, 202);
      }
      gets.push(String(input));
      return answer(String(input).includes('/failures') ? failures : started);
    }),
  );
  return { gets, posts };
}

afterEach(() => vi.unstubAllGlobals());

const firstRead = { timeout: 5000 };

describe('the failures page', () => {
  it('asks with the jobs table filters and shows a row per group linking to its jobs', async () => {
    const { gets } = stubFailures();
    renderWithService(
      <FailuresPage />,
      undefined,
      '/failures?queue=demo%3A%3Adefault&state=failed',
    );
    const rows = await screen.findAllByTestId('failure-group', {}, firstRead);
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual([
      '2 jobs · exit 1 · error: upstream returned 503',
      '1 job · timeout · no cause recorded',
    ]);
    const asked = new URL(
      gets.find((path) => path.includes('/failures'))!,
      'http://x',
    );
    expect(asked.searchParams.getAll('state')).toEqual(['failed']);
    expect(asked.searchParams.get('queue')).toBe('demo::default');
    expect(within(rows[0]!).getByRole('link', { name: '2 jobs' })).toHaveAttribute(
      'href',
      `/jobs?id=${ID_A}&id=${ID_B}`,
    );
    expect(within(rows[0]!).getByRole('link', { name: 'fetch-7' })).toHaveAttribute(
      'href',
      `/jobs/${ID_A}`,
    );
  });

  it('retries a group after a confirm that counts its jobs and says secrets stay in the service', async () => {
    const { posts } = stubFailures();
    renderWithService(<FailuresPage />, undefined, '/failures');
    await userEvent.click(
      await screen.findByRole(
        'button',
        { name: 'Retry all: 2 jobs · exit 1 · error: upstream returned 503' },
        firstRead,
      ),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Retry every job of this group?' });
    expect(within(dialog).getByText(/^2 jobs will be submitted again/)).toBeVisible();
    expect(within(dialog).getByText(/secrets are kept in the service/)).toBeVisible();
    expect(posts).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry 2 jobs' }));
    expect(posts).toEqual([{ action: 'resubmit', filter: upstream.filter }]);
    expect(await screen.findByText('Done: 2 of 2 jobs: 2 accepted, 0 refused.')).toBeVisible();
  });

  it('offers no retry to a role that may not start a bulk action', async () => {
    stubFailures();
    renderWithService(<FailuresPage />, undefined, '/failures', 'viewer');
    const retry = await screen.findByRole(
      'button',
      { name: 'Retry all: 1 job · timeout · no cause recorded' },
      firstRead,
    );
    expect(retry).toHaveAttribute('aria-disabled');
  });
});
