import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Schedule } from '../../../contract';
import { capabilities, renderWithService, requestedPaths, stubService } from '../../test/service';
import { schedule } from '../../test/schedule';
import SchedulesPage from './SchedulesPage';

const JOB_ID = '01a20274-e614-709d-917d-d51b4dc7e757';
const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Firing every 5 s: next in 3 s and 8 s; the last firing ran a job, the one before skipped. */
const active = (): Schedule =>
  schedule({
    next_firings: [fromNow(3000), fromNow(8000)],
    recent: [
      {
        fire_at: fromNow(-2000),
        job_id: JOB_ID,
        job_name: 'nightly-1',
        state: 'running',
        note: null,
      },
      {
        fire_at: fromNow(-7000),
        job_id: null,
        job_name: null,
        state: null,
        note: 'skipped: the job of the previous firing was still running',
      },
    ],
  });

/** The list answers `schedules`; pause answers the schedule paused with the reason sent, or `refusal`. */
function stubSchedules(schedules: Schedule[], refusal?: string) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    if (path.endsWith('/pause')) {
      if (refusal)
        return new Response(JSON.stringify({ ok: false, message: refusal }), { status: 400 });
      const { reason } = JSON.parse(String(init?.body)) as { reason?: string };
      const data = {
        ...schedules[0]!,
        paused: true,
        paused_reason: reason ?? null,
        next_firings: [],
      };
      return new Response(JSON.stringify({ ok: true, data }), { status: 200 });
    }
    return new Response(JSON.stringify({ ok: true, data: { items: schedules } }), { status: 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const noStream = capabilities({ events: false });

afterEach(() => vi.unstubAllGlobals());

describe('SchedulesPage', () => {
  it('shows when a schedule fires, what it submits, its policies and its firings', async () => {
    stubSchedules([active()]);
    renderWithService(<SchedulesPage />, noStream);
    const card = await screen.findByRole('region', { name: 'Schedule every-5s' });
    expect(within(card).getByTestId('schedule-when')).toHaveTextContent(
      'Every 5 seconds */5 * * * * * (UTC)',
    );
    expect(card).toHaveTextContent('Submits demo::hello:1 to demo::default');
    expect(card).toHaveTextContent('overlap: skip');
    expect(card).toHaveTextContent('missed: run once');
    expect(within(card).getByTestId('schedule-state')).toHaveTextContent('Active');
    const next = within(card).getAllByTestId('next-firing');
    expect(next).toHaveLength(2);
    expect(next[0]).toHaveTextContent(/^in 0:0[23] · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const runs = within(card).getByRole('table', { name: 'Recent firings of every-5s' });
    const link = within(runs).getByRole('link', { name: 'nightly-1' });
    expect(link).toHaveAttribute('href', `/jobs/${JOB_ID}`);
    expect(within(runs).getByTestId('state-badge')).toHaveAttribute('data-state', 'running');
    expect(within(runs).getByTestId('firing-note')).toHaveTextContent(/^skipped: /);
    expect(within(card).getByRole('button', { name: /^Pause / })).toBeVisible();
  });

  it('shows a paused schedule with its reason, no next firings, and Resume', async () => {
    stubSchedules([schedule({ paused: true, paused_reason: 'disk full', next_firings: [] })]);
    renderWithService(<SchedulesPage />, noStream);
    const card = await screen.findByRole('region', { name: 'Schedule every-5s' });
    expect(within(card).getByTestId('schedule-state')).toHaveTextContent('Paused');
    expect(within(card).getByTestId('paused-reason')).toHaveTextContent('Paused: disk full');
    expect(card).toHaveTextContent('None while paused.');
    expect(within(card).getByRole('button', { name: /^Resume / })).toBeVisible();
  });

  it('pauses with a reason typed in the dialog, and shows the schedule as the service answers', async () => {
    const fetch = stubSchedules([active()]);
    renderWithService(<SchedulesPage />, noStream);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Pause / }));
    const dialog = await screen.findByRole('dialog', { name: 'Pause every-5s?' });
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'maintenance{Enter}');
    const card = screen.getByRole('region', { name: 'Schedule every-5s' });
    await vi.waitFor(() =>
      expect(within(card).getByTestId('paused-reason')).toHaveTextContent('maintenance'),
    );
    const pause = fetch.mock.calls.find(([path]) => String(path).endsWith('/pause'))!;
    expect(String(pause[0])).toBe('/v1/client/schedules/every-5s/pause');
    expect(JSON.parse(String(pause[1]?.body))).toEqual({ reason: 'maintenance' });
    expect(within(card).getByRole('button', { name: /^Resume / })).toBeVisible();
  });

  it('shows the service’s refusal in the dialog and keeps it open', async () => {
    stubSchedules([active()], 'reason: must be at most 200 characters');
    renderWithService(<SchedulesPage />, noStream);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Pause / }));
    const dialog = await screen.findByRole('dialog', { name: 'Pause every-5s?' });
    await user.click(within(dialog).getByRole('button', { name: 'Pause schedule' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'reason: must be at most 200 characters',
    );
    expect(
      within(screen.getByTestId('schedule-card')).getByTestId('schedule-state'),
    ).toHaveTextContent('Active');
  });

  it('asks nothing of a service without schedules', async () => {
    const fetch = stubService([]);
    renderWithService(<SchedulesPage />, capabilities({ schedules: false }));
    expect(await screen.findByTestId('no-schedules')).toBeVisible();
    expect(requestedPaths(fetch)).toEqual([]);
  });
});
