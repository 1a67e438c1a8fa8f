import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiKey, CreatedApiKey } from '../../../contract';
import { capabilities, renderWithService } from '../../test/service';
import KeysPage from './KeysPage';

const key = (fields: Partial<ApiKey>): ApiKey => ({
  id: 'k-ci',
  label: 'ci',
  role: 'operator',
  created_at: '2026-11-20T08:00:00.000Z',
  created_by: 'user:ada@example.com',
  expires_at: null,
  last_used_at: '2026-11-27T08:00:00.000Z',
  revoked_at: null,
  ...fields,
});

const consoleKey = key({
  id: 'k-console',
  label: 'console (created at first start)',
  role: 'admin',
  created_by: null,
});

/** The service: the keys on GET; a create or a revoke recorded. */
function stubKeys(keys: ApiKey[]) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    const answer = (data: unknown, status = 200) =>
      new Response(JSON.stringify({ ok: true, ...(data !== undefined && { data }) }), { status });
    if (method === 'GET') return answer({ items: keys });
    const body = init?.body
      ? (JSON.parse(String(init.body)) as Record<string, unknown>)
      : undefined;
    sent.push({ method, path, body });
    if (method === 'DELETE') return answer(undefined);
    const created: CreatedApiKey = {
      ...key({ id: 'k-new', label: String(body?.label), role: 'viewer' }),
      last_used_at: null,
      key: 'jd_shown_once_0123456789',
    };
    return answer(created, 201);
  });
  vi.stubGlobal('fetch', fetch);
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe('the API keys page', () => {
  it('lists each key with its role, creator, use and status', async () => {
    stubKeys([
      key({}),
      key({ id: 'k-old', label: 'old', revoked_at: '2026-11-25T08:00:00.000Z' }),
      key({ id: 'k-exp', label: 'temp', expires_at: '2026-11-21T08:00:00.000Z' }),
      consoleKey,
    ]);
    renderWithService(<KeysPage />);
    const rows = await screen.findAllByTestId('api-key');
    expect(rows.map((row) => within(row).getAllByRole('cell')[6]!.textContent)).toEqual([
      'active',
      'revoked',
      'expired',
      'active',
    ]);
    expect(within(rows[0]!).getByText('user:ada@example.com')).toBeVisible();
    expect(within(rows[3]!).getByText('command line')).toBeVisible();
    expect(within(rows[3]!).getByText('this console')).toBeVisible();
    expect(within(rows[1]!).queryByRole('button', { name: /Revoke/ })).toBeNull();
  });

  it('creates a key and shows it once, in a dialog only Done closes', async () => {
    const sent = stubKeys([]);
    renderWithService(<KeysPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create a key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create an API key' });
    await user.type(within(dialog).getByRole('textbox', { name: /Label/ }), 'dashboards');
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await within(dialog).findByRole('option', { name: /^viewer/, hidden: true }));
    await user.type(within(dialog).getByRole('textbox', { name: /Expires after/ }), '30');
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await within(dialog).findByTestId('created-key')).toHaveTextContent(
      'jd_shown_once_0123456789',
    );
    expect(within(dialog).getByRole('button', { name: 'Copy key' })).toBeVisible();
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/v1/client/keys',
        body: { label: 'dashboards', role: 'viewer', expires_in_days: 30 },
      },
    ]);
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('created-key')).toBeVisible();
    expect(within(dialog).queryByRole('button', { name: 'Close dialog' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await user.click(screen.getByRole('button', { name: 'Create a key' }));
    expect(screen.queryByTestId('created-key')).toBeNull();
  });

  it("revokes only once confirmed, warning first when it is the console's own key", async () => {
    const sent = stubKeys([key({}), consoleKey]);
    renderWithService(<KeysPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke ci' }));
    let dialog = await screen.findByRole('dialog', { name: 'Revoke ci?' });
    expect(within(dialog).queryByText('This console may lose its access')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(sent).toEqual([]);
    await user.click(
      screen.getByRole('button', { name: 'Revoke console (created at first start)' }),
    );
    dialog = await screen.findByRole('dialog', {
      name: 'Revoke console (created at first start)?',
    });
    expect(within(dialog).getByText('This console may lose its access')).toBeVisible();
    expect(dialog).toHaveTextContent('This is the key this console is acting with');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke key' }));
    await vi.waitFor(() =>
      expect(sent).toEqual([
        { method: 'DELETE', path: '/v1/client/keys/k-console', body: undefined },
      ]),
    );
  });

  it('tells a non-admin it needs the admin role, and reads nothing', async () => {
    const sent = stubKeys([key({})]);
    renderWithService(<KeysPage />, capabilities(), '/keys', 'operator');
    expect(await screen.findByText('Needs the admin role')).toBeVisible();
    expect(screen.queryByTestId('api-key')).toBeNull();
    expect(sent).toEqual([]);
  });
});
