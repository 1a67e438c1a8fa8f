import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capabilities, renderWithService, stubService } from '../../test/service';
import OverviewPage from './OverviewPage';
import { idleQueue as queue } from '../../test/queue-summary';
import { ZERO, projectShare, queueShare, quotaFigures, sharesFixture } from '../../test/shares';

afterEach(() => vi.unstubAllGlobals());

describe('a queue card’s retention', () => {
  it('says how long each queue keeps its finished jobs, in the largest whole unit, or forever', async () => {
    stubService([
      [
        /\/v1\/client\/queues$/,
        {
          items: [
            queue('default', { retention_seconds: 14 * 86_400 }),
            queue('hourly', { retention_seconds: 3600 }),
            queue('brief', { retention_seconds: 90 }),
            queue('archive', { retention_seconds: null }),
            // A service without retention says nothing of it: neither does the card.
            queue('older'),
          ],
        },
      ],
    ]);
    renderWithService(<OverviewPage />, capabilities({ events: false }));
    const retentionOf = async (name: string) =>
      within(await screen.findByRole('region', { name: `Queue demo::${name}` })).queryByTestId(
        'queue-retention',
      )?.textContent;
    expect(await retentionOf('default')).toBe('Finished jobs kept 14 days');
    expect(await retentionOf('hourly')).toBe('Finished jobs kept 1 hour');
    expect(await retentionOf('brief')).toBe('Finished jobs kept 90 seconds');
    expect(await retentionOf('archive')).toBe('Finished jobs kept forever');
    expect(await retentionOf('older')).toBeUndefined();
  });
});

describe('a queue card’s ended counts', () => {
  it('link to that state’s jobs ended in the last hour, on a list that filters by it', async () => {
    stubService([[/\/v1\/client\/queues$/, { items: [queue('default')] }]]);
    renderWithService(<OverviewPage />, capabilities({ events: false }));
    const card = await screen.findByRole('region', { name: 'Queue demo::default' });
    const link = within(card).getByTestId('ended-failed');
    const target = new URL(link.getAttribute('href')!, 'http://console');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      queue: 'demo::default',
      state: 'failed',
      ended: '1h',
    });
    expect(link).toHaveAccessibleName(/: list those ended in the last hour$/);
    expect(within(card).queryByText(/filters by creation time/)).toBeNull();
  });

  it('link to that state’s jobs created in the last hour elsewhere, not to every one ever', async () => {
    stubService([[/\/v1\/client\/queues$/, { items: [queue('default')] }]]);
    renderWithService(<OverviewPage />, capabilities({ events: false, endedFilter: false }));
    const card = await screen.findByRole('region', { name: 'Queue demo::default' });
    const link = within(card).getByTestId('ended-failed');
    const target = new URL(link.getAttribute('href')!, 'http://console');
    expect(target.pathname).toBe('/jobs');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      queue: 'demo::default',
      state: 'failed',
      created: '1h',
    });
    expect(link).toHaveAccessibleName(/in the last hour.*: list those created in the last hour$/);
  });
});

describe('a queue card’s share and quota', () => {
  const busy = {
    in_use: { ...ZERO, cpus: 3, jobs: 3 },
    dominant: { resource: 'cpus', fraction: 0.375 },
  } as const;
  const shares = sharesFixture([
    projectShare({
      ...busy,
      quota: quotaFigures({ cpus: 2 }, { borrowed: { ...ZERO, cpus: 1 } }),
      queues: [
        queueShare({ ...busy, share: 0.25 }),
        queueShare({
          queue: 'demo::bulk',
          active: false,
          share: 0.25,
          quota: quotaFigures({ jobs: 4 }, { lent: { ...ZERO, jobs: 1 } }),
        }),
      ],
    }),
  ]);

  it('says what the queue holds against its share, and its quota or its project’s, with a bar each', async () => {
    stubService([
      [/\/v1\/client\/queues$/, { items: [queue('default'), queue('bulk'), queue('other')] }],
      [/\/v1\/client\/shares$/, shares],
    ]);
    renderWithService(<OverviewPage />, capabilities({ events: false }));
    const card = async (name: string) =>
      screen.findByRole('region', { name: `Queue demo::${name}` });
    const busy = await card('default');
    expect(await within(busy).findByTestId('queue-share')).toHaveTextContent(
      'Share: holds 38 % of CPUs; share 25 % (weight 1)',
    );
    // Past its share: the bar says so in its name, orange in its colour.
    expect(
      within(busy).getByRole('progressbar', {
        name: 'demo::default Share: holds 38 % of CPUs; share 25 % (weight 1)',
      }),
    ).toHaveAttribute('aria-valuenow', '37.5');
    // No quota of its own: its project's, borrowing past it.
    expect(within(busy).getByTestId('queue-quota')).toHaveTextContent(
      'project demo quota: holds 3 of 2 CPUs; borrows 1 CPU',
    );
    expect(
      within(busy).getByRole('progressbar', {
        name: 'project demo quota: holds 3 of 2 CPUs; borrows 1 CPU',
      }),
    ).toHaveAttribute('aria-valuenow', '100');
    const idle = await card('bulk');
    expect(within(idle).getByTestId('queue-share')).toHaveTextContent(
      'Share: no work now (weight 1)',
    );
    expect(within(idle).getByTestId('queue-quota')).toHaveTextContent(
      'queue quota: holds 0 of 4 jobs; lends 1 job',
    );
    // A queue the shares do not list says nothing of them.
    expect(within(await card('other')).queryByTestId('queue-share')).toBeNull();
  });

  it('asks nothing of a service without shares', async () => {
    const fetch = stubService([[/\/v1\/client\/queues$/, { items: [queue('default')] }]]);
    renderWithService(<OverviewPage />, capabilities({ events: false, shares: false }));
    const busy = await screen.findByRole('region', { name: 'Queue demo::default' });
    expect(within(busy).queryByTestId('queue-share')).toBeNull();
    expect(fetch.mock.calls.some(([path]) => String(path).includes('/shares'))).toBe(false);
  });
});
