import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEvent, WhoAmI } from '../../../contract';
import { capabilities, renderWithService, requestedPaths, stubService } from '../../test/service';
import AuditPage from './AuditPage';

const whoami = (role: WhoAmI['role']): WhoAmI => ({
  project: 'demo',
  role,
  actor: 'key:key_0123456789ab',
  service: { name: 'jobdeck', version: '1.2.0', engine: 'docker' },
});

const event = (fields: Partial<AuditEvent>): AuditEvent => ({
  id: 'e-1',
  at: '2026-11-27T08:00:00.000Z',
  actor: 'key:key_0123456789ab',
  address: '10.0.0.7',
  action: 'job.submit',
  target: 'job-1',
  detail: { definition: 'demo::echo:1', queue: 'demo::default' },
  ...fields,
});

const auditPaths = (fetch: ReturnType<typeof stubService>) =>
  requestedPaths(fetch)
    .filter((path) => path.startsWith('/v1/client/audit'))
    .map((path) => new URL(path, 'http://x').searchParams);

afterEach(() => vi.unstubAllGlobals());

// The first answer waits for whoami, whose request code is imported when first read.
const firstRead = { timeout: 5000 };

describe('the audit page', () => {
  it('lists the events newest first, each with who, what, on what and from where', async () => {
    stubService([
      [/whoami/, whoami('admin')],
      [
        /\/audit/,
        {
          items: [
            event({ id: 'e-2', action: 'job.cancel', target: 'job-1', detail: {} }),
            event({ id: 'e-1' }),
          ],
          next_cursor: null,
        },
      ],
    ]);
    renderWithService(<AuditPage />);
    const rows = await screen.findAllByTestId('audit-event', {}, firstRead);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('job.cancel')).toBeVisible();
    expect(rows[1]).toHaveTextContent('key:key_0123456789ab');
    expect(rows[1]).toHaveTextContent('10.0.0.7');
    expect(rows[1]).toHaveTextContent('definition: demo::echo:1 · queue: demo::default');
    expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();
  });

  it('pages to older events by cursor and back, and filters by action', async () => {
    const fetch = stubService([
      [/whoami/, whoami('admin')],
      [/cursor=c1/, { items: [event({ id: 'e-1' })], next_cursor: null }],
      [/\/audit/, { items: [event({ id: 'e-2' })], next_cursor: 'c1' }],
    ]);
    renderWithService(<AuditPage />);
    await screen.findAllByTestId('audit-event', {}, firstRead);
    await userEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByRole('button', { name: 'Newer' })).toBeEnabled();
    expect(auditPaths(fetch).at(-1)!.get('cursor')).toBe('c1');
    await userEvent.click(screen.getByRole('button', { name: 'Newer' }));
    await userEvent.type(screen.getByPlaceholderText('Every action'), 'queue.pa{ArrowDown}{Enter}');
    await vi.waitFor(() => expect(auditPaths(fetch).at(-1)!.get('action')).toBe('queue.pause'));
    expect(auditPaths(fetch).at(-1)!.get('cursor')).toBeNull();
  });

  it('tells a key that is not an admin why it sees nothing, and asks for nothing', async () => {
    const fetch = stubService([[/whoami/, whoami('operator')]]);
    renderWithService(<AuditPage />, capabilities(), undefined, 'operator');
    expect(
      await screen.findByText('Only the project’s admins see the audit trail', {}, firstRead),
    ).toBeVisible();
    expect(auditPaths(fetch)).toEqual([]);
  });
});
