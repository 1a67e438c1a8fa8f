import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '../../../contract';
import { knowRole } from '../../test/service';
import SubmitPage from './SubmitPage';
import { TestMantine } from '../../test/theme';

function renderPage(role: Role = 'operator') {
  const client = new QueryClient();
  knowRole(client, role);
  return render(
    <TestMantine>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/submit']}>
          <SubmitPage />
        </MemoryRouter>
      </QueryClientProvider>
    </TestMantine>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('SubmitPage', () => {
  it('tells a viewer the role it needs instead of showing the form', () => {
    vi.stubGlobal('fetch', vi.fn());
    renderPage('viewer');
    expect(screen.getByText('Needs the operator role')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit job' })).toBeNull();
  });

  it('blocks bad input at the fields without calling the service', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByRole('combobox', { name: 'Job definition' }), 'nope');
    await user.click(screen.getByRole('button', { name: 'Submit job' }));
    expect(
      await screen.findByText('must look like <project>::<definition>:<version>'),
    ).toBeInTheDocument();
    expect(screen.getByText('is required')).toBeInTheDocument();
    // The page may read what the service declares; it must send nothing.
    const sent = fetch.mock.calls.filter(
      ([, init]) => (init as RequestInit | undefined)?.method === 'POST',
    );
    expect(sent).toEqual([]);
  });

  it('re-checks a parameter reference as soon as the parameter is added', async () => {
    vi.stubGlobal('fetch', vi.fn());
    renderPage();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add word' }));
    await user.type(screen.getByRole('combobox', { name: 'Command word 1' }), 'Param::who');
    await user.click(screen.getByRole('button', { name: 'Submit job' }));
    const message = 'refers to parameter "who", which the parameters below do not define';
    expect(await screen.findByText(message)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add parameter' }));
    await user.type(screen.getByRole('textbox', { name: 'Parameter 1 key' }), 'who');
    await vi.waitFor(() => expect(screen.queryByText(message)).not.toBeInTheDocument());
  });

  it('masks a sensitive value and keeps it out of the preview', async () => {
    vi.stubGlobal('fetch', vi.fn());
    renderPage();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add variable' }));
    await user.type(screen.getByRole('textbox', { name: 'Variable 1 name' }), 'TOKEN');
    await user.click(screen.getByRole('switch', { name: 'Variable 1 is sensitive' }));
    const value = screen.getByLabelText('Variable 1 value');
    expect(value).toHaveAttribute('type', 'password');
    await user.type(value, 'hunter2');
    expect(screen.getByTestId('payload-preview')).not.toHaveTextContent('hunter2');
    expect(screen.getByTestId('payload-preview')).toHaveTextContent('<redacted>');
  });
});

describe('SubmitPage with a parameter key typed twice', () => {
  it('names the duplicate and keeps the page up while a command word is typed', async () => {
    vi.stubGlobal('fetch', vi.fn());
    renderPage();
    const user = userEvent.setup();
    for (const index of [1, 2]) {
      await user.click(screen.getByRole('button', { name: 'Add parameter' }));
      await user.type(screen.getByRole('textbox', { name: `Parameter ${index} key` }), 'who');
    }
    await user.click(screen.getByRole('button', { name: 'Add word' }));
    await user.type(screen.getByRole('combobox', { name: 'Command word 1' }), 'Param::who');
    await user.click(screen.getByRole('button', { name: 'Submit job' }));
    expect(await screen.findByText('duplicate key "who"')).toBeInTheDocument();
  });
});
