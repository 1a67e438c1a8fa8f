import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Member } from '../../../contract';
import { capabilities, renderWithService } from '../../test/service';
import MembersPage from './MembersPage';

const member = (identity: string, fields: Partial<Member> = {}): Member => ({
  identity,
  role: 'operator',
  added_by: 'user:ada@example.com',
  added_at: '2026-11-20T08:00:00.000Z',
  last_sign_in_at: null,
  ...fields,
});

const LAST_ADMIN = 'role: the project would be left without an admin member';

/** The service: the members on GET; a PUT or DELETE recorded (a demotion of ada refused: 409). */
function stubMembers(members: Member[]) {
  const sent: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    if (method === 'GET')
      return new Response(JSON.stringify({ ok: true, data: { items: members } }), { status: 200 });
    sent.push(`${method} ${path} ${init?.body ?? ''}`.trim());
    if (path.endsWith('ada%40example.com') && method === 'PUT')
      return new Response(JSON.stringify({ ok: false, message: LAST_ADMIN }), { status: 409 });
    return new Response(JSON.stringify({ ok: true }), { status: 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

/** Opens a role picker and picks the role (each picker has a listbox of its own). */
async function pickRole(combobox: HTMLElement, role: string) {
  const user = userEvent.setup();
  await user.click(combobox);
  await vi.waitFor(() => expect(combobox.getAttribute('aria-controls')).toBeTruthy());
  const listbox = document.getElementById(combobox.getAttribute('aria-controls')!)!;
  await user.click(
    within(listbox).getByRole('option', { name: new RegExp(`^${role}`), hidden: true }),
  );
}

describe('the members page', () => {
  it('lists the members, changes a role in place, and shows a refusal in the service’s words', async () => {
    const sent = stubMembers([
      member('ada@example.com', { role: 'admin', last_sign_in_at: '2026-11-27T08:00:00.000Z' }),
      member('sub:248289761001', { added_by: null }),
    ]);
    renderWithService(<MembersPage />);
    const rows = await screen.findAllByTestId('member');
    expect(within(rows[1]!).getByText('command line')).toBeVisible();
    expect(within(rows[1]!).getByText('never')).toBeVisible();
    await pickRole(
      within(rows[1]!).getByRole('combobox', { name: 'Role of sub:248289761001' }),
      'viewer',
    );
    await pickRole(
      within(rows[0]!).getByRole('combobox', { name: 'Role of ada@example.com' }),
      'operator',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(LAST_ADMIN);
    expect(sent).toEqual([
      'PUT /v1/client/members/sub%3A248289761001 {"role":"viewer"}',
      'PUT /v1/client/members/ada%40example.com {"role":"operator"}',
    ]);
  });

  it('adds a member by e-mail with a role, after checking the identity as the service will', async () => {
    const sent = stubMembers([]);
    renderWithService(<MembersPage />);
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Add a member' });
    const identity = within(form).getByRole('textbox', { name: /E-mail or sub/ });
    await user.type(identity, 'not an address');
    await user.click(within(form).getByRole('button', { name: 'Add member' }));
    expect(await within(form).findByText(/must be an e-mail address or sub:/)).toBeVisible();
    expect(sent).toEqual([]);
    await user.clear(identity);
    await user.type(identity, 'Grace@Example.com');
    await pickRole(within(form).getByRole('combobox', { name: 'Role' }), 'admin');
    await user.click(within(form).getByRole('button', { name: 'Add member' }));
    await vi.waitFor(() =>
      expect(sent).toEqual(['PUT /v1/client/members/grace%40example.com {"role":"admin"}']),
    );
  });

  it('removes a member only once confirmed', async () => {
    const sent = stubMembers([member('bob@example.com')]);
    renderWithService(<MembersPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove bob@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove bob@example.com?' });
    expect(sent).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    await vi.waitFor(() => expect(sent).toEqual(['DELETE /v1/client/members/bob%40example.com']));
  });

  it('tells a non-admin it needs the admin role', async () => {
    const sent = stubMembers([member('bob@example.com')]);
    renderWithService(<MembersPage />, capabilities(), '/members', 'viewer');
    expect(await screen.findByText('Needs the admin role')).toBeVisible();
    expect(sent).toEqual([]);
  });
});
