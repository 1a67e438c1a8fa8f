import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CreatedWebhook, Webhook, WebhookDelivery } from '../../../contract';
import { capabilities, renderWithService } from '../../test/service';
import WebhooksPage from './WebhooksPage';

const webhook: Webhook = {
  id: 'w-1',
  url: 'https://hooks.example.com/jobdeck',
  description: 'on-call',
  states: ['failed'],
  queues: [],
  labels: ['team=data'],
  created_by: 'key-1',
  created_at: '2026-11-27T08:00:00.000Z',
};

const delivery = (fields: Partial<WebhookDelivery>): WebhookDelivery => ({
  id: 'd-1',
  event_type: 'job.failed',
  job_id: '019af3c2-7b1e-7d4a-9c8e-4b2f1a3c5d6e',
  state: 'delivered',
  attempts: 1,
  response_status: 200,
  latency_ms: 12,
  error: null,
  created_at: '2026-11-27T08:01:00.000Z',
  next_attempt_at: null,
  finished_at: '2026-11-27T08:01:00.000Z',
  ...fields,
});

/** The service: its webhooks and deliveries on GET; a create, a test or a delete recorded. */
function stubWebhooks(hooks: Webhook[], deliveries: WebhookDelivery[]) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    const answer = (data: unknown, status = 200) =>
      new Response(JSON.stringify({ ok: true, ...(data !== undefined && { data }) }), { status });
    if (method !== 'GET') {
      sent.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (path.endsWith('/test')) return answer(delivery({ state: 'pending' }), 202);
      if (method === 'DELETE') return answer(undefined);
      const created: CreatedWebhook = {
        ...webhook,
        id: 'w-2',
        secret: 'whsec_c2VjcmV0LXNob3duLW9uY2U=',
      };
      return answer(created, 201);
    }
    if (path.endsWith('/deliveries')) return answer({ items: deliveries });
    if (path === '/v1/client/queues') return answer({ items: [] });
    return answer({ items: hooks });
  });
  vi.stubGlobal('fetch', fetch);
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe('the webhooks page', () => {
  it('lists each webhook with what fires it and its delivery log', async () => {
    stubWebhooks(
      [webhook],
      [
        delivery({
          id: 'd-2',
          state: 'pending',
          attempts: 2,
          response_status: 500,
          error: 'answered 500',
          next_attempt_at: '2026-11-27T08:05:00.000Z',
          finished_at: null,
        }),
        delivery({}),
      ],
    );
    renderWithService(<WebhooksPage />);
    const card = await screen.findByRole('region', { name: `Webhook ${webhook.url}` });
    expect(within(card).getByText('on-call')).toBeTruthy();
    expect(within(card).getByText('team=data')).toBeTruthy();
    expect(within(card).getByText('every queue')).toBeTruthy();
    const rows = await within(card).findAllByTestId('delivery');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('pending')).toBeTruthy();
    expect(within(rows[0]!).getByText(/answered 500 · next try/)).toBeTruthy();
    expect(within(rows[1]!).getByText('12 ms')).toBeTruthy();
    // The short id: the random end of the UUIDv7, not its start (the time, shared by a burst).
    expect(within(rows[1]!).getByRole('link', { name: '…1a3c5d6e' }).getAttribute('href')).toBe(
      '/jobs/019af3c2-7b1e-7d4a-9c8e-4b2f1a3c5d6e',
    );
  });

  it('adds a webhook with the states, labels and description given, and shows its secret once', async () => {
    const sent = stubWebhooks([], []);
    renderWithService(<WebhooksPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add a webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a webhook' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /URL/ }), webhook.url);
    await userEvent.type(within(dialog).getByPlaceholderText('team=data'), 'team=data{enter}');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Description/ }), 'on-call');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add webhook' }));
    expect(await within(dialog).findByTestId('webhook-secret')).toHaveProperty(
      'textContent',
      'whsec_c2VjcmV0LXNob3duLW9uY2U=',
    );
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/v1/client/webhooks',
        body: {
          url: webhook.url,
          states: ['failed', 'timeout', 'error'],
          labels: ['team=data'],
          description: 'on-call',
        },
      },
    ]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Add a webhook' }));
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
  });

  it('sends a test event, and deletes only once confirmed', async () => {
    const sent = stubWebhooks([webhook], []);
    renderWithService(<WebhooksPage />);
    const card = await screen.findByRole('region', { name: `Webhook ${webhook.url}` });
    await userEvent.click(within(card).getByRole('button', { name: 'Send test event' }));
    await userEvent.click(within(card).getByRole('button', { name: 'Delete…' }));
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /v1/client/webhooks/w-1/test']);
    await userEvent.click(within(card).getByRole('button', { name: 'Delete webhook and its log' }));
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /v1/client/webhooks/w-1/test',
      'DELETE /v1/client/webhooks/w-1',
    ]);
  });

  it('says so where the service has no webhooks', async () => {
    stubWebhooks([], []);
    renderWithService(<WebhooksPage />, capabilities({ webhooks: false }));
    expect(await screen.findByText('This service offers no webhooks')).toBeTruthy();
  });
});
