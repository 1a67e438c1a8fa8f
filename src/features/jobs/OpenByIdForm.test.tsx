import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listItem } from '../../test/list-item';
import { renderWithService, requestedPaths, stubService } from '../../test/service';
import { OpenByIdForm } from './OpenByIdForm';

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

const page = (
  <Routes>
    <Route path="/jobs" element={<OpenByIdForm />} />
    <Route path="/jobs/:id" element={<Where />} />
  </Routes>
);
const first = '019af3c2-7b1e-7d4a-9c8e-4b2f1a3c5d6e';
const second = '019af3c2-7b1e-7d4a-9c8e-77771a3c5d6e';
const matches = (...ids: string[]) => ({
  items: ids.map((id, n) => listItem(id, { name: `nightly-${n}` })),
  total: ids.length,
  total_exact: true,
  next_cursor: null,
});

afterEach(() => vi.unstubAllGlobals());

describe('Open a job by id', () => {
  it('opens the one job a short id names, pasted with its ellipsis', async () => {
    const fetch = stubService([[/id_suffix=1a3c5d6e/, matches(first)]]);
    renderWithService(page, undefined, '/jobs');
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /Open a job by id/ }), '…1A3C5D6E');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByTestId('where')).toHaveTextContent(`/jobs/${first}`);
    expect(requestedPaths(fetch)).toEqual(['/v1/client/jobs?limit=20&id_suffix=1a3c5d6e']);
  });

  it('lists every job an ambiguous short id matches, and says when none does', async () => {
    stubService([
      [/id_suffix=3c5d6e/, matches(first, second)],
      [/id_suffix=ffffff/, matches()],
    ]);
    renderWithService(page, undefined, '/jobs');
    const user = userEvent.setup();
    const box = screen.getByRole('textbox', { name: /Open a job by id/ });
    await user.type(box, '3c5d6e');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const listed = await screen.findByTestId('id-matches');
    expect(listed).toHaveTextContent('2 jobs have an id ending in 3c5d6e');
    expect(
      within(listed)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([`/jobs/${first}`, `/jobs/${second}`]);
    await user.clear(box);
    await user.type(box, 'ffffff');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'No job of this project has an id ending in ffffff.',
    );
  });

  it('opens a whole id, or any text that is no short id, without a read (Job Detail is the spec’s)', async () => {
    const fetch = stubService([]);
    renderWithService(page, undefined, '/jobs');
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /Open a job by id/ }), 'job-42');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/jobs/job-42');
    expect(requestedPaths(fetch)).toEqual([]);
  });
});
