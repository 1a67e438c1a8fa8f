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
    expect(await screen.findByRole('link', { name: 'Jobs' })).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Schedules' })).toBeNull();
  });
});

describe('the header', () => {
  const shell = (
    <Routes>
      <Route path="*" element={<Shell />} />
    </Routes>
  );
  const identity = (engine: string) => ({
    project: 'demo',
    role: 'admin',
    actor: 'key:k-1',
    service: { name: 'jobdeck', version: '1.2.0', engine },
  });

  it('says the engine is simulated where nothing runs, and nothing of a real engine', async () => {
    stubService([[/whoami/, identity('simulated')]]);
    const { unmount } = renderWithService(shell, capabilities(), undefined, null);
    expect(await screen.findByText('simulated engine')).toBeVisible();
    expect(screen.getByTestId('acting-for')).toHaveTextContent(
      'project demo · admin · Jobdeck 1.2.0',
    );
    unmount();
    stubService([[/whoami/, identity('docker')]]);
    renderWithService(shell, capabilities(), undefined, null);
    expect(await screen.findByTestId('acting-for')).toHaveTextContent('project demo');
    expect(screen.queryByText('simulated engine')).toBeNull();
  });
});
