import { describe, expect, it } from 'vitest';
import type { JobListItem } from '../../../contract';
import { listItem } from '../../test/list-item';
import { sortJobs } from './sort-jobs';

const NOW = Date.parse('2026-11-21T12:00:00Z');

const job = (id: string, fields: Partial<JobListItem>) => listItem(id, fields);

// Newest first, as the service lists them.
const page = [
  job('waiting', { state: 'runnable', created_at: '2026-11-21T11:00:00Z' }),
  job('running', {
    state: 'running',
    created_at: '2026-11-21T10:30:00Z',
    started_at: '2026-11-21T11:59:00Z',
  }),
  job('long', {
    created_at: '2026-11-21T10:20:00Z',
    started_at: '2026-11-21T10:20:00Z',
    finished_at: '2026-11-21T10:25:00Z',
  }),
  job('short', {
    created_at: '2026-11-21T10:10:00Z',
    started_at: '2026-11-21T10:10:00Z',
    finished_at: '2026-11-21T10:10:05Z',
  }),
];
const ids = (jobs: JobListItem[]) => jobs.map((j) => j.id);

describe('sorting a page of jobs', () => {
  it('orders by created either way', () => {
    expect(ids(sortJobs(page, { key: 'created', direction: 'ascending' }, NOW))).toEqual([
      'short',
      'long',
      'running',
      'waiting',
    ]);
    expect(ids(sortJobs(page, { key: 'created', direction: 'descending' }, NOW))).toEqual(
      ids(page),
    );
  });

  it('orders by duration, a running job by its time so far, one not started last', () => {
    expect(ids(sortJobs(page, { key: 'duration', direction: 'descending' }, NOW))).toEqual([
      'long',
      'running',
      'short',
      'waiting',
    ]);
    expect(ids(sortJobs(page, { key: 'duration', direction: 'ascending' }, NOW))).toEqual([
      'short',
      'running',
      'long',
      'waiting',
    ]);
  });

  it('orders by state in lifecycle order, ties kept newest first', () => {
    expect(ids(sortJobs(page, { key: 'state', direction: 'ascending' }, NOW))).toEqual([
      'waiting',
      'running',
      'long',
      'short',
    ]);
  });
});
