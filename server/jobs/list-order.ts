import { JOB_STATES, type ListSort } from '../../contract';
import type { Job } from './model';
import type { ListOrder } from './list-filter';

/** The list's `sort` parameter as the store takes it: `-ended_at` is ended_at, descending. */
export function listOrderOf(sort: ListSort): ListOrder {
  const descending = sort.startsWith('-');
  return { field: (descending ? sort.slice(1) : sort) as ListOrder['field'], descending };
}

/** The parameter again, which a sorted cursor is bound to. */
export function listSortOf(order: ListOrder): ListSort {
  return `${order.descending ? '-' : ''}${order.field}`;
}

/**
 * A job's value in the list's order, as the store sorts it (store/sql/jobs/sorted-list.ts): the
 * state's place in the lifecycle, a time, or finished − started; null when it has none yet.
 */
export function sortKeyOf(job: Job, field: ListOrder['field']): number | null {
  switch (field) {
    case 'state':
      return JOB_STATES.indexOf(job.state);
    case 'created_at':
      return job.createdAt;
    case 'started_at':
      return job.startedAt;
    case 'ended_at':
      return job.finishedAt;
    case 'duration':
      return job.startedAt === null || job.finishedAt === null
        ? null
        : job.finishedAt - job.startedAt;
  }
}
