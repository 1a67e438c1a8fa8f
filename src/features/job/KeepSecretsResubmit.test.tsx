import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobExecution, JobRecord } from '../../../contract';
import { capabilities, renderWithService, stubService } from '../../test/service';
import { JobHeader } from './JobHeader';

const failed: JobRecord = {
  id: '01a20274-e614-709d-917d-d51b4dc7e757',
  name: 'deploy',
  state: 'failed',
  system_note: 'exit code 1',
  schedule_at: null,
  created_at: '2026-11-26T10:40:00.000Z',
  updated_at: '2026-11-26T10:41:57.000Z',
};
const NEW_ID = '01a20275-0000-7000-8000-000000000001';

const executionWith = (sensitive: boolean): JobExecution => ({
  job_definition: 'demo::shell:1',
  job_queue: 'demo::default',
  image: 'busybox',
  command: ['sh', '-c', 'deploy'],
  env: [{ name: 'TOKEN', sensitive, value: sensitive ? null : 'plain' }],
  limits: { cpus: 1, memory_bytes: 268435456, timeout_seconds: 3600 },
  exit_code: 1,
  started_at: '2026-11-26T10:41:00.000Z',
  finished_at: '2026-11-26T10:41:57.000Z',
  duration_ms: 57000,
  engine: 'docker',
  instance: null,
  node: null,
});

function renderHeader(sensitive: boolean, offer = capabilities()) {
  const fetch = stubService([
    [/\/execution$/, executionWith(sensitive)],
    [/\/resubmit$/, { id: NEW_ID, resubmitted_from: failed.id, kept_secrets: ['TOKEN'] }],
  ]);
  renderWithService(
    <Routes>
      <Route path="/" element={<JobHeader job={failed} array={null} />} />
      <Route path="/jobs/:id" element={<p>the new job's page</p>} />
    </Routes>,
    offer,
    '/',
    'operator',
  );
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('Retry of a job with secret values', () => {
  it('is done by the service, keeping the secrets, and opens the new job', async () => {
    const fetch = renderHeader(true);
    const retry = await screen.findByRole('button', { name: 'Retry' });
    expect(retry).toHaveAccessibleDescription(
      'Keeps the secret values of this job, in the service',
    );
    expect(screen.getByRole('link', { name: 'Edit and submit again' })).toHaveAttribute(
      'href',
      `/submit?from=${failed.id}`,
    );
    await userEvent.setup().click(retry);
    expect(await screen.findByText("the new job's page")).toBeInTheDocument();
    const posts = fetch.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posts.map(([input, init]) => [String(input), init?.body])).toEqual([
      [`/v1/client/job/${failed.id}/resubmit`, undefined],
    ]);
  });

  it('stays the form where the job has no secret, or the service cannot submit again', async () => {
    renderHeader(false);
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Retry' })).toHaveAttribute(
        'href',
        `/submit?from=${failed.id}`,
      ),
    );
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
    renderHeader(true, capabilities({ resubmit: false }));
    expect(await screen.findByRole('link', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});
