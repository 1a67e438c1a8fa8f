import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capabilities, renderWithService, stubService } from '../test/service';
import { Shell } from './Shell';

afterEach(() => vi.unstubAllGlobals());

describe('the navigation', () => {
  const shell = (
    <Routes>
      <Route path="*" element={<Shell />} />
    </Routes>
  );

  it('links to Schedules where the service has them, and not elsewhere', async () => {
    stubService([]);
    const { unmount } = renderWithService(shell, capabilities({ identity: false }));
    expect(await screen.findByRole('link', { name: 'Schedules' })).toHaveAttribute(
      'href',
      '/schedules',
    );
    unmount();
    renderWithService(shell, capabilities({ identity: false, schedules: false }));
    expect(screen.getByRole('link', { name: 'Jobs' })).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Schedules' })).toBeNull();
  });
});
