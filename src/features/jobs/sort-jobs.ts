import { JOB_STATES, type JobListItem } from '../../../contract';
import { durationMs } from '../../lib/time';
import type { SortKey, TableSort } from './url-filters';

const SORT_VALUE: Record<SortKey, (job: JobListItem, now: number) => number | null> = {
  created: (job) => Date.parse(job.created_at),
  started: (job) => (job.started_at === null ? null : Date.parse(job.started_at)),
  ended: (job) => (job.finished_at === null ? null : Date.parse(job.finished_at)),
  duration: durationMs,
  // Lifecycle order (waiting, running, ended), which says more than the alphabet.
  state: (job) => JOB_STATES.indexOf(job.state),
};

/**
 * The page's rows in the table's order. Jobs with no value (not started, for duration) go last
 * either way; ties keep the service's order, newest first.
 */
export function sortJobs(
  jobs: readonly JobListItem[],
  sort: TableSort,
  now: number,
): JobListItem[] {
  const valueOf = SORT_VALUE[sort.key];
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return jobs
    .map((job) => ({ job, value: valueOf(job, now) }))
    .sort((a, b) =>
      a.value === null || b.value === null
        ? Number(a.value === null) - Number(b.value === null)
        : sign * (a.value - b.value),
    )
    .map(({ job }) => job);
}
