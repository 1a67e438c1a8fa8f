import { screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { vi } from 'vitest';

type User = ReturnType<typeof userEvent.setup>;
type FetchMock = ReturnType<typeof vi.fn<typeof fetch>>;

/** Pasted, not typed: typing a word letter by letter is seconds on a busy machine. */
export async function fill(user: User, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

/** The submit form's definition and queue, filled. */
export async function fillBasics(user: User, definition = 'demo::hello:1') {
  await fill(user, screen.getByRole('combobox', { name: 'Job definition' }), definition);
  await fill(user, screen.getByRole('combobox', { name: 'Job queue' }), 'demo::default');
}

/** The request body the form's preview shows. */
export const previewBody = () =>
  JSON.parse(screen.getByTestId('payload-preview').textContent ?? '') as unknown;

/** The requests sent with POST. */
export const posted = (fetchMock: FetchMock) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');

/** The body of the first Job Submit sent. */
export const sentBody = (fetchMock: FetchMock) =>
  JSON.parse(String(posted(fetchMock)[0]![1]!.body)) as Record<string, unknown>;

/** A service that refuses every Job Submit with `message` (a 400) and knows nothing else (404). */
export function refusingSubmit(message: string): FetchMock {
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    if (init?.method === 'POST' && String(input) === '/v1/client/job')
      return new Response(JSON.stringify({ ok: false, message }), { status: 400 });
    return new Response(JSON.stringify({ ok: false, message: 'not found' }), { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
