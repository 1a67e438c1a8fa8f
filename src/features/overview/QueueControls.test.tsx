import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueueSummary } from '../../../contract';
import { idleQueue } from '../../test/queue-summary';
import { capabilities, renderWithService } from '../../test/service';
import OverviewPage from './OverviewPage';

const now = { submitted: 0, pending: 0, runnable: 3, starting: 0, running: 2, cancelling: 0 };

const queue = (overrides: Partial<QueueSummary> = {}): QueueSummary =>
  idleQueue('default', {
    paused_reason: null,
    configured_max_running: 2,
    max_running_ceiling: 8,
    changed: null,
    now,
    ...overrides,
  });

/** The list answers `shown`; each change answers the queue as the service would, or `refusal`. */
function stubQueues(shown: QueueSummary, refusal?: string) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    const changed = { at: new Date().toISOString(), by: 'key-7' };
    const answer = (data: QueueSummary) =>
      new Response(JSON.stringify({ ok: true, data }), { status: 200 });
    if (refusal && init?.method === 'POST') {
      return new Response(JSON.stringify({ ok: false, message: refusal }), { status: 400 });
    }
    if (path.endsWith('/pause')) {
      return answer({
        ...shown,
        paused: true,
        paused_reason: (body.reason as string) ?? null,
        changed,
      });
    }
    if (path.endsWith('/resume'))
      return answer({ ...shown, paused: false, paused_reason: null, changed });
    if (path.endsWith('/max-running')) {
      const max = (body.max_running as number | null) ?? shown.configured_max_running!;
      return answer({ ...shown, max_running: max, changed });
    }
    return new Response(JSON.stringify({ ok: true, data: { items: [shown] } }), { status: 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const posts = (fetch: ReturnType<typeof stubQueues>) =>
  fetch.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([path, init]) => [String(path), JSON.parse(String(init?.body ?? '{}')) as unknown]);

const noStream = capabilities({ events: false });

afterEach(() => vi.unstubAllGlobals());

describe('queue controls on the overview', () => {
  it('pauses a queue with a reason, then shows why and who, and offers Resume', async () => {
    const fetch = stubQueues(queue());
    renderWithService(<OverviewPage />, noStream);
    const user = userEvent.setup();
    const card = await screen.findByRole('region', { name: 'Queue demo::default' });
    await user.click(within(card).getByRole('button', { name: /^Pause / }));
    const dialog = await screen.findByRole('dialog', { name: 'Pause demo::default?' });
    expect(dialog).toHaveTextContent('Running jobs are left alone');
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'bad release{Enter}');
    await vi.waitFor(() =>
      expect(within(card).getByTestId('queue-paused-reason')).toHaveTextContent(
        'Paused: bad release',
      ),
    );
    expect(within(card).getByTestId('paused-badge')).toBeVisible();
    expect(within(card).getByTestId('queue-changed')).toHaveTextContent(
      /^Changed \S+ ago by key-7$/,
    );
    expect(posts(fetch)).toEqual([
      ['/v1/client/queues/demo%3A%3Adefault/pause', { reason: 'bad release' }],
    ]);
    await user.click(within(card).getByRole('button', { name: /^Resume / }));
    await vi.waitFor(() => expect(within(card).queryByTestId('paused-badge')).toBeNull());
  });

  it('changes max_running within the ceiling, and goes back to the configured value', async () => {
    const fetch = stubQueues(queue({ max_running: 5, configured_max_running: 2 }));
    renderWithService(<OverviewPage />, noStream);
    const user = userEvent.setup();
    const card = await screen.findByRole('region', { name: 'Queue demo::default' });
    expect(within(card).getByTestId('slots')).toHaveTextContent(
      '2 of 5 slots in use (configured: 2)',
    );
    await user.click(
      within(card).getByRole('button', { name: 'Change max running of demo::default' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Max running of demo::default' });
    expect(dialog).toHaveTextContent('The configuration says 2; at most 8.');
    const input = within(dialog).getByRole('textbox', { name: 'Jobs running at once' });
    await user.clear(input);
    await user.type(input, '6{Enter}');
    await vi.waitFor(() =>
      expect(within(card).getByTestId('slots')).toHaveTextContent(
        '2 of 6 slots in use (configured: 2)',
      ),
    );
    await user.click(
      within(card).getByRole('button', { name: 'Change max running of demo::default' }),
    );
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', {
        name: 'Back to configured (2)',
      }),
    );
    await vi.waitFor(() =>
      expect(within(card).getByTestId('slots')).toHaveTextContent(/^2 of 2 slots in use$/),
    );
    expect(posts(fetch).map(([, body]) => body)).toEqual([
      { max_running: 6 },
      { max_running: null },
    ]);
  });

  it('shows the service’s refusal in the dialog and keeps the queue as it was', async () => {
    stubQueues(queue(), "max_running: must be at most 8, the queue's max_running_ceiling");
    renderWithService(<OverviewPage />, noStream);
    const user = userEvent.setup();
    const card = await screen.findByRole('region', { name: 'Queue demo::default' });
    await user.click(
      within(card).getByRole('button', { name: 'Change max running of demo::default' }),
    );
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      "max_running: must be at most 8, the queue's max_running_ceiling",
    );
    expect(within(card).getByTestId('slots')).toHaveTextContent(/^2 of 2 slots in use$/);
  });

  it('offers no controls on a service without them', async () => {
    const older = queue();
    delete older.max_running_ceiling;
    stubQueues(older);
    renderWithService(<OverviewPage />, noStream);
    const card = await screen.findByRole('region', { name: 'Queue demo::default' });
    expect(within(card).queryByTestId('queue-controls')).toBeNull();
    expect(within(card).queryByRole('button', { name: /^Pause / })).toBeNull();
  });
});
