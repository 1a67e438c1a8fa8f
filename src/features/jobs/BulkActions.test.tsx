import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BulkAction } from '../../../contract';
import { renderWithService } from '../../test/service';
import { BulkActions } from './BulkActions';

const base: BulkAction = {
  id: 'b-1',
  action: 'cancel',
  state: 'running',
  filter: { state: ['runnable'], queue: 'demo::held' },
  matched: 3000,
  processed: 1200,
  accepted: 1190,
  refused: 10,
  created_by: 'key_1',
  created_at: new Date().toISOString(),
  finished_at: null,
};

afterEach(() => vi.unstubAllGlobals());

describe('the bulk actions list', () => {
  it('shows each action with its progress, and stops a running one', async () => {
    let running = base;
    const stops: string[] = [];
    const done = { ...base, id: 'b-0', state: 'done' as const, filter: {}, processed: 3000 };
    const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'POST') {
        stops.push(String(input));
        running = { ...running, state: 'stopped' };
        return new Response(JSON.stringify({ ok: true, data: running }), { status: 200 });
      }
      const data = { items: [running, done] };
      return new Response(JSON.stringify({ ok: true, data }), { status: 200 });
    });
    vi.stubGlobal('fetch', fetch);
    renderWithService(<BulkActions />);
    await userEvent.click(screen.getByRole('button', { name: 'Bulk actions' }));
    const table = await screen.findByRole('table', { name: 'Latest bulk actions' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first).toHaveTextContent('Cancel: state=runnable · queue=demo::held');
    expect(first).toHaveTextContent('Reached 1,200 of 3,000 jobs: 1,190 accepted, 10 refused.');
    expect(second).toHaveTextContent('Cancel: none: every job of the project');
    expect(within(second!).queryByRole('button', { name: /^Stop/ })).not.toBeInTheDocument();

    await userEvent.click(
      within(first!).getByRole('button', {
        name: 'Stop: cancel state=runnable · queue=demo::held, begun a few seconds ago',
      }),
    );
    await vi.waitFor(() => expect(first).toHaveTextContent('Stopped after 1,200 of 3,000 jobs'));
    expect(stops).toEqual(['/v1/client/bulk-actions/b-1/stop']);
    expect(within(first!).queryByRole('button', { name: /^Stop/ })).not.toBeInTheDocument();
  });
});
