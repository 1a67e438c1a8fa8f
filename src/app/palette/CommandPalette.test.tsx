import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capabilities, renderWithService, requestedPaths, stubService } from '../../test/service';
import { listItem } from '../../test/list-item';
import { idleQueue } from '../../test/queue-summary';
import { Shell } from '../Shell';

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

const shell = (
  <Routes>
    <Route path="*" element={<Shell />}>
      <Route path="*" element={<Where />} />
    </Route>
  </Routes>
);

const first = '019af3c2-7b1e-7d4a-9c8e-4b2f1a3c5d6e';
const second = '019af3c2-7b1e-7d4a-9c8e-77771a3c5d6e';

afterEach(() => vi.unstubAllGlobals());

// The palette's chunk, a 200 ms debounce and a read: seconds on a loaded machine.
const LOADED = { timeout: 10_000 };

describe('the command palette', () => {
  it('opens with Ctrl-K and opens a job by its short id, keyboard only', async () => {
    const fetch = stubService([
      [
        /id_suffix=1a3c5d6e/,
        {
          items: [listItem(first, { name: 'nightly-7' })],
          total: 1,
          total_exact: true,
          next_cursor: null,
        },
      ],
      [/\/v1\/client\/queues/, { items: [] }],
      [/\/v1\/client\/views/, { items: [] }],
    ]);
    renderWithService(shell, capabilities({ identity: false }), '/');
    const user = userEvent.setup();
    await screen.findByTestId('where');
    await user.keyboard('{Control>}k{/Control}');
    const box = await screen.findByRole('combobox', {}, LOADED);
    await waitFor(() => expect(box).toHaveFocus(), LOADED);
    await user.keyboard('…1a3c5d6e');
    const option = await screen.findByRole('option', { name: /nightly-7/ }, LOADED);
    expect(option).toHaveAttribute('aria-selected', 'true');
    expect(option).toHaveTextContent('…1a3c5d6e');
    await user.keyboard('{Enter}');
    expect(await screen.findByTestId('where')).toHaveTextContent(`/jobs/${first}`);
    await waitFor(() => expect(screen.queryByRole('combobox')).toBeNull(), LOADED);
    expect(requestedPaths(fetch).some((path) => path.includes('id_suffix=1a3c5d6e'))).toBe(true);
  });

  it('lists every job an ambiguous short id matches, and queues and views by name', async () => {
    stubService([
      [
        /id_suffix=1a3c5d6e/,
        {
          items: [listItem(first, { name: 'nightly-7' }), listItem(second, { name: 'nightly-8' })],
          total: 2,
          total_exact: true,
          next_cursor: null,
        },
      ],
      [/\/v1\/client\/queues/, { items: [idleQueue('nightly'), idleQueue('web')] }],
      [
        /\/v1\/client\/views/,
        {
          items: [
            {
              name: 'nightly failures',
              search: 'state=failed',
              created_by: 'k-1',
              saved_at: '2026-12-01T10:00:00Z',
            },
          ],
        },
      ],
      [/name=night/, { items: [], total: 0, total_exact: true, next_cursor: null }],
    ]);
    renderWithService(shell, capabilities({ identity: false }), '/');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('palette-button'));
    await screen.findByRole('combobox', {}, LOADED);
    await user.keyboard('1a3c5d6e');
    const jobs = await screen.findByRole('group', { name: 'Jobs' }, LOADED);
    await waitFor(() => expect(within(jobs).getAllByRole('option')).toHaveLength(2), LOADED);
    await user.clear(screen.getByRole('combobox'));
    await user.keyboard('night');
    const queues = await screen.findByRole('group', { name: 'Queues' }, LOADED);
    expect(
      within(queues)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([expect.stringContaining('demo::nightly')]);
    // Down from the queue to the view, then Enter.
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('option', { name: /nightly failures/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await user.keyboard('{Enter}');
    expect(await screen.findByTestId('where')).toHaveTextContent('/jobs?state=failed');
  });
});
