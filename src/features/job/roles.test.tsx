import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord } from '../../../contract';
import { capabilities, renderWithService, stubService } from '../../test/service';
import { JobHeader } from './JobHeader';

const running: JobRecord = {
  id: '01a20274-e614-709d-917d-d51b4dc7e757',
  name: 'deploy',
  state: 'running',
  system_note: null,
  schedule_at: null,
  created_at: '2026-11-26T10:40:00.000Z',
  updated_at: '2026-11-26T10:41:57.000Z',
};

afterEach(() => vi.unstubAllGlobals());

describe("a job's actions, by the key's role", () => {
  it('shows a viewer Cancel disabled, saying the role it needs, and offers nothing to submit', async () => {
    const fetch = stubService([]);
    renderWithService(<JobHeader job={running} array={null} />, capabilities(), '/', 'viewer');
    const cancel = screen.getByRole('button', { name: 'Cancel job' });
    expect(cancel).toHaveAttribute('aria-disabled', 'true');
    const user = userEvent.setup();
    await user.hover(cancel);
    expect(await screen.findByText('Needs the operator role')).toBeInTheDocument();
    await user.click(cancel);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(
      screen.queryByRole('link', { name: /Submit again|Retry|Submit a job after/ }),
    ).toBeNull();
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'POST')).toEqual([]);
  });

  it('lets an operator cancel and submit again', async () => {
    stubService([]);
    renderWithService(<JobHeader job={running} array={null} />, capabilities(), '/', 'operator');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Cancel job' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this job?' });
    // It fades in from opacity 0 (a 200 ms transition): on a loaded machine it was found first.
    await waitFor(() => expect(dialog).toBeVisible());
    expect(screen.getByRole('link', { name: 'Submit again' })).toBeVisible();
  });

  it('offers everything where the service says nothing of roles', () => {
    stubService([]);
    renderWithService(
      <JobHeader job={running} array={null} />,
      capabilities({ identity: false }),
      '/',
      null,
    );
    expect(screen.getByRole('button', { name: 'Cancel job' })).not.toHaveAttribute('aria-disabled');
  });
});
