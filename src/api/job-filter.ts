import { matchesLabel, parseLabelSelector, type JobListItem } from '../../contract';
import type { JobFilter } from './jobs';

/**
 * An array's child, known by its name: `<parent name>:<index>`, a colon no submitted name may
 * hold. The event stream reports children like any job; the service's list leaves them out.
 */
export const isArrayChild = (job: { name: string }) => /:\d+$/.test(job.name);

/** Whether a job belongs in a list with this filter: the service's rules, applied to one row. */
export function matchesFilter(filter: JobFilter, job: JobListItem): boolean {
  if (isArrayChild(job)) return false;
  if (filter.states.length > 0 && !filter.states.includes(job.state)) return false;
  if (filter.queue && job.job_queue !== filter.queue) return false;
  if (filter.name && !job.name.startsWith(filter.name)) return false;
  const created = Date.parse(job.created_at);
  if (filter.createdAfter && created < Date.parse(filter.createdAfter)) return false;
  if (filter.createdBefore && created >= Date.parse(filter.createdBefore)) return false;
  if (filter.createdWithinMs !== undefined && created < Date.now() - filter.createdWithinMs)
    return false;
  const ended = job.finished_at === null ? null : Date.parse(job.finished_at);
  const endedWindow = filter.endedWithinMs !== undefined || filter.endedAfter || filter.endedBefore;
  if (endedWindow && ended === null) return false;
  if (filter.endedWithinMs !== undefined && ended! < Date.now() - filter.endedWithinMs)
    return false;
  if (filter.endedAfter && ended! < Date.parse(filter.endedAfter)) return false;
  if (filter.endedBefore && ended! >= Date.parse(filter.endedBefore)) return false;
  for (const text of filter.labels ?? []) {
    const selector = parseLabelSelector(text);
    if (selector && !matchesLabel(job.labels, selector)) return false;
  }
  return true;
}
