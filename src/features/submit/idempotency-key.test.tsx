import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithService } from '../../test/service';
import { fill, fillBasics, posted } from '../../test/submit-form';
import SubmitPage from './SubmitPage';

afterEach(() => vi.unstubAllGlobals());

type Answer = 'network' | 'accepted' | 'refused';

/** A service whose Job Submits answer in turn as `answers` say; every other path is a 404. */
function submitsAnswering(answers: Answer[]) {
  let submits = 0;
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    if (init?.method !== 'POST' || String(input) !== '/v1/client/job') {
      return new Response(JSON.stringify({ ok: false, message: 'not found' }), { status: 404 });
    }
    submits += 1;
    const answer = answers.shift();
    if (answer === 'network') throw new TypeError('Failed to fetch');
    if (answer === 'refused') {
      return new Response(JSON.stringify({ ok: false, message: 'name: taken' }), { status: 400 });
    }
    const id = `0199d6a0-0000-7000-8000-00000000000${submits}`;
    return new Response(JSON.stringify({ ok: true, data: { id } }), { status: 202 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The Idempotency-Key of each Job Submit sent, in order. */
const keysSent = (fetchMock: ReturnType<typeof submitsAnswering>) =>
  posted(fetchMock).map(([, init]) => (init!.headers as Record<string, string>)['Idempotency-Key']);

const submitButton = () => screen.getByRole('button', { name: 'Submit job' });

describe('the submit form’s Idempotency-Key', () => {
  it('sends the same key when an unanswered submit is retried, a fresh one after it was accepted', async () => {
    const fetchMock = submitsAnswering(['network', 'accepted', 'accepted']);
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    await fillBasics(user);
    await user.click(submitButton());
    await vi.waitFor(() => expect(posted(fetchMock)).toHaveLength(1));
    // The same contents again after the network lost the answer: the same key.
    await vi.waitFor(() => expect(submitButton()).toBeEnabled());
    await user.click(submitButton());
    await vi.waitFor(() => expect(posted(fetchMock)).toHaveLength(2));
    // Accepted: a second job of the same contents is a new request.
    await vi.waitFor(() => expect(submitButton()).toBeEnabled());
    await user.click(submitButton());
    await vi.waitFor(() => expect(posted(fetchMock)).toHaveLength(3));
    const [first, retried, next] = keysSent(fetchMock);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(retried).toBe(first);
    expect(next).toMatch(/^[0-9a-f]{32}$/);
    expect(next).not.toBe(first);
  });

  it('sends a fresh key once the contents changed, or after a refusal', async () => {
    const fetchMock = submitsAnswering(['network', 'refused', 'accepted']);
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    await fillBasics(user);
    await user.click(submitButton());
    await vi.waitFor(() => expect(posted(fetchMock)).toHaveLength(1));
    await fill(user, screen.getByRole('textbox', { name: 'Name' }), 'changed');
    await user.click(submitButton());
    await vi.waitFor(() => expect(posted(fetchMock)).toHaveLength(2));
    await vi.waitFor(() => expect(submitButton()).toBeEnabled());
    await user.click(submitButton());
    await vi.waitFor(() => expect(posted(fetchMock)).toHaveLength(3));
    const keys = keysSent(fetchMock);
    expect(new Set(keys).size).toBe(3);
  });
});
