import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostList, HostRecord } from '../../../contract';
import { capabilities, renderWithService, stubService } from '../../test/service';
import {
  GIB,
  ZERO,
  projectShare,
  queueShare,
  quotaFigures,
  sharesFixture,
} from '../../test/shares';
import HostsPage from './HostsPage';

const host = (fields: Partial<HostRecord>): HostRecord => ({
  id: 'n1',
  name: 'worker-1',
  state: 'ready',
  capacity: { cpus: 8, memory_bytes: 16 * GIB, gpus: 0 },
  used: { cpus: 0, memory_bytes: 0, gpus: 0 },
  jobs: [],
  other_jobs: 0,
  ...fields,
});

afterEach(() => vi.unstubAllGlobals());

const firstRead = { timeout: 5000 };

describe('the hosts page', () => {
  it('shows a bar per host and dimension, its jobs, and drained or lost hosts', async () => {
    const list: HostList = {
      placement: true,
      items: [
        host({
          capacity: { cpus: 8, memory_bytes: 16 * GIB, gpus: 1 },
          used: { cpus: 2, memory_bytes: 12 * GIB, gpus: 1 },
          jobs: [
            {
              id: 'job-1',
              name: 'train-1',
              queue: 'demo::default',
              state: 'running',
              resources: { cpus: 2, memory_bytes: 12 * GIB, gpus: 1 },
            },
          ],
          other_jobs: 2,
        }),
        host({ id: 'n2', name: 'worker-2', state: 'drained' }),
        host({ id: 'n3', name: 'worker-3', state: 'lost' }),
      ],
    };
    stubService([[/\/hosts/, list]]);
    renderWithService(<HostsPage />);
    const cards = await screen.findAllByTestId('host', {}, firstRead);
    expect(cards).toHaveLength(3);
    const first = within(cards[0]!);
    expect(first.getByText('ready')).toBeVisible();
    expect(first.getByRole('progressbar', { name: 'worker-1 CPUs: 2 of 8' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    expect(
      first.getByRole('progressbar', { name: 'worker-1 Memory: 12 GiB of 16 GiB' }),
    ).toHaveAttribute('aria-valuenow', '75');
    expect(first.getByRole('progressbar', { name: 'worker-1 GPUs: 1 of 1' })).toBeVisible();
    expect(first.getByRole('link', { name: 'train-1' })).toHaveAttribute('href', '/jobs/job-1');
    expect(first.getByText('and 2 jobs of other projects')).toBeVisible();
    // A host with no GPU has no GPU bar; one that takes no work says so.
    const second = within(cards[1]!);
    expect(second.queryByRole('progressbar', { name: /GPUs/ })).toBeNull();
    expect(second.getByText('drained')).toBeVisible();
    expect(second.getByText('Takes no new work; its jobs count until they end.')).toBeVisible();
    expect(within(cards[2]!).getByText('lost')).toBeVisible();
  });

  it('says when the engine reports no hosts', async () => {
    stubService([[/\/hosts/, { placement: false, items: [] }]]);
    renderWithService(<HostsPage />);
    expect(await screen.findByText('No hosts reported', {}, firstRead)).toBeVisible();
  });

  it('says when the service has no hosts extension, and asks nothing', async () => {
    const fetch = stubService([]);
    renderWithService(<HostsPage />, capabilities({ hosts: false }));
    expect(
      await screen.findByText('This service does not report its hosts.', {}, firstRead),
    ).toBeVisible();
    expect(fetch.mock.calls.some(([path]) => String(path).includes('/hosts'))).toBe(false);
  });
});

describe('fair share on the hosts page', () => {
  it("shows each project's share, what it holds, and a project with no work", async () => {
    const shares = sharesFixture([
      projectShare({
        project: 'team-a',
        weight: 2,
        share: 0.5,
        dominant: { resource: 'memory_bytes', fraction: 0.62 },
      }),
      projectShare({ project: 'team-b', active: false, share: 0.25 }),
    ]);
    stubService([
      [/\/hosts/, { placement: true, items: [host({})] }],
      [/\/shares/, shares],
    ]);
    renderWithService(<HostsPage />);
    const cards = await screen.findAllByTestId('share', {}, firstRead);
    expect(cards).toHaveLength(2);
    expect(
      within(cards[0]!).getByRole('progressbar', {
        name: 'team-a holds 62 % of memory, share 50 % (weight 2)',
      }),
    ).toHaveAttribute('aria-valuenow', '62');
    expect(
      within(cards[1]!).getByText('no work now: its share is lent to the others'),
    ).toBeVisible();
  });

  it("shows a project's and a queue's quota, what it borrows and what it lends", async () => {
    const shares = sharesFixture([
      projectShare({
        project: 'team-a',
        in_use: { cpus: 6, memory_bytes: 3 * GIB, gpus: 0, jobs: 6 },
        quota: quotaFigures(
          { cpus: 4, memory_bytes: 8 * GIB },
          { borrowing_limit: { cpus: 2 }, borrowed: { ...ZERO, cpus: 2 } },
        ),
        queues: [
          queueShare({
            queue: 'team-a::bulk',
            in_use: { ...ZERO, jobs: 1 },
            dominant: { resource: 'jobs', fraction: 0.06 },
            quota: quotaFigures({ jobs: 4 }, { lent: { ...ZERO, jobs: 1 } }),
          }),
        ],
      }),
      projectShare({ project: 'team-b' }),
    ]);
    stubService([
      [/\/hosts/, { placement: true, items: [host({})] }],
      [/\/shares/, shares],
    ]);
    renderWithService(<HostsPage />);
    const cards = await screen.findAllByTestId('share', {}, firstRead);
    expect(within(cards[0]!).getByTestId('quota')).toHaveTextContent(
      'quota: holds 6 of 4 CPUs, 3 GiB of 8 GiB of memory; borrows 2 CPUs',
    );
    expect(
      within(cards[0]!).getByText(
        'team-a::bulk: weight 1, holds 6 %; quota: holds 1 of 4 jobs; lends 1 job',
      ),
    ).toBeVisible();
    // A project without a quota says nothing of one.
    expect(within(cards[1]!).queryByTestId('quota')).toBeNull();
  });

  it("says a project's last day in words and draws it; says nothing of it where not counted", async () => {
    const hour = (start: string, average: number, peak: number) => ({
      start,
      in_use: { average: ZERO, peak: ZERO },
      dominant: { average, peak },
    });
    const shares = sharesFixture([
      projectShare({
        project: 'team-a',
        last_day: [
          hour('2026-12-07T17:00:00.000Z', 0.1, 0.25),
          hour('2026-12-07T18:00:00.000Z', 0.4, 0.75),
        ],
      }),
      projectShare({ project: 'team-b' }),
    ]);
    stubService([
      [/\/hosts/, { placement: true, items: [host({})] }],
      [/\/shares/, shares],
    ]);
    renderWithService(<HostsPage />);
    const cards = await screen.findAllByTestId('share', {}, firstRead);
    expect(within(cards[0]!).getByTestId('share-last-day')).toHaveTextContent(
      'Last day: at most 75 % of a capacity held; the busiest hour averaged 40 %',
    );
    expect(await within(cards[0]!).findByTestId('share-day-chart', {}, firstRead)).toBeVisible();
    expect(within(cards[1]!).queryByTestId('share-last-day')).toBeNull();
  });

  it('asks nothing of a service without shares', async () => {
    const fetch = stubService([[/\/hosts/, { placement: true, items: [host({})] }]]);
    renderWithService(<HostsPage />, capabilities({ shares: false }));
    await screen.findAllByTestId('host', {}, firstRead);
    expect(screen.queryByText('Fair share')).toBeNull();
    expect(fetch.mock.calls.some(([path]) => String(path).includes('/shares'))).toBe(false);
  });
});
