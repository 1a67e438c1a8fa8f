import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SavedView } from '../../../contract';
import { renderWithService } from '../../test/service';
import { SavedViews } from './SavedViews';

const shared: SavedView = {
  name: 'Data team',
  search: 'label=team%3Ddata',
  created_by: 'key-1',
  saved_at: '2026-11-27T05:00:00.000Z',
};

/** The project's views; a save answers the view, or `refusal`. */
function stubViews(refusal?: string) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === 'PUT') {
      if (refusal)
        return new Response(JSON.stringify({ ok: false, message: refusal }), { status: 409 });
      const { search } = JSON.parse(String(init.body)) as { search: string };
      const name = decodeURIComponent(String(input).split('/').at(-1)!);
      const data = { ...shared, name, search };
      return new Response(JSON.stringify({ ok: true, data }), { status: 200 });
    }
    return new Response(JSON.stringify({ ok: true, data: { items: [shared] } }), { status: 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

beforeEach(() => localStorage.clear());

/**
 * jsdom runs no CSS transition: on a loaded machine the menu's dropdown at times stayed
 * display: none (CI). Its items are found in the DOM as rendered; Chromium (e2e/views.spec.ts)
 * checks them shown and clicked.
 */
const IN_MENU = { hidden: true };

afterEach(() => vi.unstubAllGlobals());

async function saveAs(name: string, scope?: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Views' }));
  fireEvent.click(
    await screen.findByRole('menuitem', { name: 'Save or manage views…', ...IN_MENU }),
  );
  const dialog = await screen.findByRole('dialog', { name: 'Save this view' });
  await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), name);
  if (scope) await user.click(within(dialog).getByText(scope));
  await user.click(within(dialog).getByRole('button', { name: 'Save view' }));
  return { user, dialog };
}

describe('saved views of the jobs table', () => {
  it('saves the view in this browser: its filters, never more, listed in the menu', async () => {
    stubViews();
    const first = renderWithService(
      <SavedViews search="state=failed&created=24h" shared={false} />,
    );
    const { dialog } = await saveAs('Failed today');
    await vi.waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(JSON.parse(localStorage.getItem('jobdeck.savedViews')!)).toEqual([
      { name: 'Failed today', search: 'state=failed&created=24h' },
    ]);
    first.unmount();
    // Another page of this browser lists it.
    renderWithService(<SavedViews search="" shared={false} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Views' }));
    expect(
      await screen.findByRole('menuitem', { name: 'Failed today', ...IN_MENU }),
    ).toBeInTheDocument();
  });

  it('lists the views the project shares', async () => {
    stubViews();
    renderWithService(<SavedViews search="" shared />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Views' }));
    expect(
      await screen.findByRole('menuitem', { name: 'Data team', ...IN_MENU }),
    ).toBeInTheDocument();
  });

  it('shares a view with the project through the service', async () => {
    const fetch = stubViews();
    renderWithService(<SavedViews search="label=ticket%3DOPS-1" shared />);
    await saveAs('OPS-1 jobs', 'Everyone in the project');
    await vi.waitFor(() =>
      expect(fetch.mock.calls.find(([, init]) => init?.method === 'PUT')).toBeDefined(),
    );
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(String(put[0])).toBe('/v1/client/views/OPS-1%20jobs');
    expect(JSON.parse(String(put[1]?.body))).toEqual({ search: 'label=ticket%3DOPS-1' });
    expect(JSON.parse(localStorage.getItem('jobdeck.savedViews') ?? '[]')).toEqual([]);
  });

  it('says why a view was not saved, and keeps the dialog open', async () => {
    stubViews('name: this project already shares 100 views; delete one first');
    renderWithService(<SavedViews search="state=failed" shared />);
    const { dialog } = await saveAs('One too many');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'this project already shares 100 views',
    );
  });

  it('refuses an empty name before sending it', async () => {
    const fetch = stubViews();
    renderWithService(<SavedViews search="state=failed" shared={false} />);
    const { dialog } = await saveAs('   ');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Name must be 1 to 64');
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'PUT')).toEqual([]);
  });
});
