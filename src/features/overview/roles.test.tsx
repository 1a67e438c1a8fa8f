import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capabilities, renderWithService, stubService } from '../../test/service';
import { idleQueue } from '../../test/queue-summary';
import OverviewPage from './OverviewPage';

afterEach(() => vi.unstubAllGlobals());

describe('the overview for an operator', () => {
  it('keeps the queue controls in sight, disabled, saying they need the admin role', async () => {
    stubService([
      [/\/v1\/client\/queues$/, { items: [idleQueue('default', { max_running_ceiling: 8 })] }],
    ]);
    renderWithService(
      <OverviewPage />,
      capabilities({ events: false, trends: false }),
      '/',
      'operator',
    );
    const card = await screen.findByRole('region', { name: 'Queue demo::default' });
    const pause = within(card).getByRole('button', { name: 'Pause demo::default' });
    const max = within(card).getByRole('button', { name: 'Change max running of demo::default' });
    for (const button of [pause, max]) expect(button).toHaveAttribute('aria-disabled', 'true');
    await userEvent.setup().click(pause);
    expect(screen.queryByRole('dialog')).toBeNull();
    // An operator still submits.
    expect(screen.getByRole('link', { name: 'Submit a job' })).toBeVisible();
  });

  it('offers a viewer no way to submit', async () => {
    stubService([[/\/v1\/client\/queues$/, { items: [] }]]);
    renderWithService(
      <OverviewPage />,
      capabilities({ events: false, trends: false }),
      '/',
      'viewer',
    );
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Submit a job' })).toBeNull();
  });
});
