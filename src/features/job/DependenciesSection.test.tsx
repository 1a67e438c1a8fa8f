import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord, JobState } from '../../../contract';
import type { DependenciesAnswer, DependencyEdge } from '../../api/dependencies';
import { jobKeys } from '../../api/keys';
import { capabilities, renderWithService, requestedPaths, stubService } from '../../test/service';
import { rowTexts } from '../../test/table';
import { DependenciesSection } from './DependenciesSection';
import { JobHeader } from './JobHeader';
import { JobView } from './JobView';

const ID = '01a20274-e614-709d-917d-d51b4dc7e757';
const BUILD = '01a20274-e614-709d-917d-d51b4dc7e700';
const LINT = '01a20274-e614-709d-917d-d51b4dc7e701';

const job = (state: JobState, fields: Partial<JobRecord> = {}): JobRecord => ({
  id: ID,
  name: 'deploy',
  state,
  system_note: null,
  schedule_at: null,
  created_at: '2026-11-26T10:40:00.000Z',
  updated_at: '2026-11-26T10:41:57.000Z',
  ...fields,
});

const edge = (jobId: string, fields: Partial<DependencyEdge>): DependencyEdge => ({
  job_id: jobId,
  name: 'build',
  type: 'afterok',
  state: 'running',
  status: 'waiting',
  ...fields,
});

const nothing: DependenciesAnswer = { depends_on: [], dependents: [], dependents_total: 0 };

afterEach(() => vi.unstubAllGlobals());

describe('DependenciesSection', () => {
  it('lists what the job waits for: each job linked, its type in words, state and status', async () => {
    const fetch = stubService([
      [
        /\/dependencies$/,
        {
          ...nothing,
          depends_on: [
            edge(BUILD, {}),
            edge(LINT, { name: 'lint', type: 'afterany', state: 'failed', status: 'met' }),
          ],
        },
      ],
    ]);
    renderWithService(<DependenciesSection job={job('pending')} />);
    const section = await screen.findByRole('region', { name: 'Dependencies' });
    const table = within(section).getByRole('table', { name: 'Waits for' });
    expect(rowTexts(table)).toEqual([
      ['build', 'to complete (afterok)', 'running', 'waiting'],
      ['lint', 'to end (afterany)', 'failed', 'met'],
    ]);
    expect(within(table).getByRole('link', { name: 'build' })).toHaveAttribute(
      'href',
      `/jobs/${BUILD}`,
    );
    expect(within(section).queryByRole('table', { name: 'Waited on by' })).not.toBeInTheDocument();
    // Polled while build runs: that path alone.
    expect(new Set(requestedPaths(fetch))).toEqual(new Set([`/v1/client/job/${ID}/dependencies`]));
  });

  it('lists what waits for it, says how many more there are, and one that can no longer be met', async () => {
    stubService([
      [
        /\/dependencies$/,
        {
          depends_on: [],
          dependents: [
            edge(BUILD, { name: 'notify', type: 'afternotok', state: 'pending' }),
            edge(LINT, { name: 'report', state: 'cancelled', status: 'unmeetable' }),
          ],
          dependents_total: 1202,
        },
      ],
    ]);
    renderWithService(<DependenciesSection job={job('failed')} />);
    const table = await screen.findByRole('table', { name: 'Waited on by' });
    expect(rowTexts(table)).toEqual([
      ['notify', 'to end unsuccessfully (afternotok)', 'pending', 'waiting'],
      ['report', 'to complete (afterok)', 'cancelled', 'can no longer be met'],
    ]);
    expect(screen.getByTestId('dependents-more')).toHaveTextContent('and 1,200 more');
    expect(screen.queryByRole('table', { name: 'Waits for' })).not.toBeInTheDocument();
  });

  it('shows nothing for a job without dependencies', async () => {
    const fetch = stubService([[/\/dependencies$/, nothing]]);
    const running = job('running');
    const { client } = renderWithService(<DependenciesSection job={running} />);
    await vi.waitFor(() =>
      expect(client.getQueryData(jobKeys.dependencies(ID, running.updated_at))).toBeDefined(),
    );
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('heading', { name: 'Dependencies' })).not.toBeInTheDocument();
  });
});

describe('Submit a job after this one', () => {
  it('opens the submit form with this job to wait for, while it may still complete', () => {
    stubService([]);
    renderWithService(<JobHeader job={job('running')} array={null} />);
    expect(screen.getByRole('link', { name: 'Submit a job after this one' })).toHaveAttribute(
      'href',
      `/submit?after=${ID}`,
    );
  });

  it('is not offered for a job that will never complete', () => {
    stubService([]);
    renderWithService(<JobHeader job={job('failed')} array={null} />);
    expect(screen.queryByRole('link', { name: 'Submit a job after this one' })).toBeNull();
  });
});

describe('a service without dependencies', () => {
  it('gets no request, and shows no section and no action', async () => {
    const fetch = stubService([[/\/dependencies$/, { ...nothing, depends_on: [edge(BUILD, {})] }]]);
    renderWithService(
      <>
        <JobHeader job={job('pending')} array={null} />
        <DependenciesSection job={job('pending')} />
      </>,
      capabilities({ dependencies: false }),
    );
    // Give a request the time to go out, were one made.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Dependencies' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Submit a job after this one' })).toBeNull();
    expect(requestedPaths(fetch).filter((path) => path.includes('dependencies'))).toEqual([]);
  });
});

describe('a scheduled job that waits for others', () => {
  const scheduled = job('pending', { schedule_at: '2026-11-26T10:45:00.000Z' });

  it('counts down to its time only once no job it depends on is still running', async () => {
    stubService([[/\/dependencies$/, { ...nothing, depends_on: [edge(BUILD, {})] }]]);
    renderWithService(<JobView job={scheduled} />);
    expect(await screen.findByRole('table', { name: 'Waits for' })).toBeInTheDocument();
    expect(screen.queryByTestId('schedule-countdown')).not.toBeInTheDocument();
  });

  it('counts down as any scheduled job once they all ended as asked', async () => {
    stubService([
      [
        /\/dependencies$/,
        { ...nothing, depends_on: [edge(BUILD, { state: 'completed', status: 'met' })] },
      ],
    ]);
    renderWithService(<JobView job={scheduled} />);
    expect(await screen.findByRole('table', { name: 'Waits for' })).toBeInTheDocument();
    expect(screen.getByTestId('schedule-countdown')).toBeInTheDocument();
  });
});
