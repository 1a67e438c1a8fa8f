import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Trends } from '../../../contract';
import { capabilities, renderWithService, requestedPaths, stubService } from '../../test/service';
import OverviewPage from './OverviewPage';
import { idleQueue as queue } from '../../test/queue-summary';

const HOUR = 3_600_000;
const trends = (range: '24h' | '30d', last: Partial<Trends['buckets'][number]>): Trends => {
  const size = range === '24h' ? HOUR : 24 * HOUR;
  const length = range === '24h' ? 24 : 30;
  const first = Date.UTC(2026, 10, 27, 10) - (length - 1) * size;
  return {
    queue: 'demo::default',
    range,
    bucket_seconds: size / 1000,
    buckets: Array.from({ length }, (_, i) => ({
      start: new Date(first + i * size).toISOString(),
      completed: 0,
      failed: 0,
      cancelled: 0,
      ...(i === length - 1 && last),
    })),
    wait: { jobs: 4, p50_ms: 1414, p95_ms: 90_000 },
    run: { jobs: 4, p50_ms: 42, p95_ms: null },
  };
};

const service = () =>
  stubService([
    [/\/v1\/client\/queues$/, { items: [queue('default'), queue('batch')] }],
    [/trends\?queue=demo%3A%3Adefault&range=24h$/, trends('24h', { completed: 3, failed: 1 })],
    [/trends\?queue=demo%3A%3Adefault&range=30d$/, trends('30d', { completed: 30, cancelled: 2 })],
  ]);

afterEach(() => vi.unstubAllGlobals());

const withIncidents = (): Trends => ({
  ...trends('24h', { failed: 7 }),
  incidents: [
    {
      kind: 'engine_unreachable',
      started_at: '2026-11-27T08:14:00.000Z',
      ended_at: '2026-11-27T08:31:00.000Z',
      note: null,
      ended_error: 7,
      errors_filter: {
        state: ['error'],
        queue: 'demo::default',
        ended_after: '2026-11-27T08:14:00.000Z',
        ended_before: '2026-11-27T08:32:00.000Z',
      },
    },
    {
      kind: 'queue_paused',
      started_at: '2026-11-27T09:00:00.000Z',
      ended_at: null,
      note: 'storage maintenance',
      ended_error: 0,
      errors_filter: {
        state: ['error'],
        queue: 'demo::default',
        ended_after: '2026-11-27T09:00:00.000Z',
      },
    },
  ],
});

describe('the overview’s trends', () => {
  it('lists the engine’s outages and the queue’s pauses, with a way to the jobs an outage ended error', async () => {
    stubService([
      [/\/v1\/client\/queues$/, { items: [queue('default')] }],
      [/trends\?queue=demo%3A%3Adefault&range=24h$/, withIncidents()],
    ]);
    renderWithService(<OverviewPage />, capabilities({ events: false }));
    const rows = await screen.findAllByTestId('trends-incident', undefined, { timeout: 10_000 });
    expect(rows.map((row) => row.dataset.kind)).toEqual(['engine_unreachable', 'queue_paused']);
    expect(rows[0]).toHaveTextContent('Container engine unreachable');
    expect(rows[0]).toHaveTextContent('(17 min)');
    expect(rows[0]).toHaveTextContent('7 jobs ended error');
    const link = within(rows[0]!).getByRole('link', { name: 'review and retry them' });
    const target = new URL(link.getAttribute('href')!, 'http://console');
    expect(target.pathname).toBe('/failures');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      state: 'error',
      queue: 'demo::default',
      ended_after: '2026-11-27T08:14:00.000Z',
      ended_before: '2026-11-27T08:32:00.000Z',
    });
    expect(rows[1]).toHaveTextContent('Queue paused');
    expect(rows[1]).toHaveTextContent('ongoing · storage maintenance');
    expect(within(rows[1]!).queryByRole('link')).toBeNull();
  });

  it('shows no incidents where the service gives none', async () => {
    service();
    renderWithService(<OverviewPage />, capabilities({ events: false }));
    await screen.findByTestId('trends-summary', undefined, { timeout: 10_000 });
    expect(screen.queryByTestId('trends-incidents')).toBeNull();
  });

  it('gives the first queue’s last 24 hours as a table beside the chart, and its times', async () => {
    service();
    renderWithService(<OverviewPage />, capabilities({ events: false }));
    const section = await screen.findByRole('region', { name: 'Trends' });
    expect(await within(section).findByTestId('trends-summary')).toHaveTextContent(
      '4 jobs ended in demo::default, per hour.',
    );
    const table = within(section).getByRole('table', {
      name: 'Jobs of demo::default ended per hour, by outcome',
    });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(25);
    expect(rows.at(-1)!.textContent).toMatch(/^\d\d:00310$/);
    const wait = within(section).getByTestId('trends-waiting-time');
    expect(wait).toHaveTextContent('(4 jobs)');
    expect(wait).toHaveTextContent('≈ 1.4 s');
    expect(wait).toHaveTextContent('≈ 1.5 min');
    const run = within(section).getByTestId('trends-run-time');
    expect(run).toHaveTextContent('≈ 42 ms');
    expect(run).toHaveTextContent('—');
  });

  it('sums per UTC day over 30 days when asked', async () => {
    const fetch = service();
    renderWithService(<OverviewPage />, capabilities({ events: false }));
    await userEvent.click(await screen.findByText('Last 30 days'));
    expect(await screen.findByTestId('trends-summary')).toHaveTextContent(
      '32 jobs ended in demo::default, per day (UTC).',
    );
    const rows = within(screen.getByTestId('trends-table')).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(rows.at(-1)!.textContent).toBe('Nov 273002');
    expect(requestedPaths(fetch)).toContain('/v1/client/trends?queue=demo%3A%3Adefault&range=30d');
  });

  it('is not shown by a service without trends', async () => {
    const fetch = service();
    renderWithService(<OverviewPage />, capabilities({ events: false, trends: false }));
    await screen.findByRole('region', { name: 'Queue demo::default' });
    expect(screen.queryByRole('region', { name: 'Trends' })).toBeNull();
    await waitFor(() =>
      expect(requestedPaths(fetch).some((p) => p.includes('trends'))).toBe(false),
    );
  });
});
