import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capabilities, renderWithService, stubService } from '../../test/service';
import OverviewPage from './OverviewPage';
import { idleQueue as queue } from '../../test/queue-summary';

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
