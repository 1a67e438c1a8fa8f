import { CURSOR_MESSAGE, type ListSort } from '../../contract';
import { listOrderOf, listSortOf, sortKeyOf } from '../jobs/list-order';
import type { Job } from '../jobs/model';
import type { JobListFilter } from '../jobs/list-filter';
import { HttpError } from './errors';
import type { PositionCodec } from './positions';

type Page = Pick<JobListFilter, 'beforeSeq' | 'sort' | 'after'>;

/**
 * Which page of the list a query asks for: newest first after a plain cursor, or in `sort`'s
 * order after a sorted one (which holds the last job's key, so that it is bound to that sort).
 */
export function listPageOf(
  query: { sort?: ListSort; cursor?: string },
  project: string,
  positions: PositionCodec,
): Page {
  const { sort, cursor } = query;
  if (sort === undefined) {
    const beforeSeq = cursor === undefined ? undefined : positions.decode(project, cursor);
    if (beforeSeq === null) throw new HttpError(400, `cursor: ${CURSOR_MESSAGE}`);
    return { beforeSeq };
  }
  if (cursor === undefined) return { sort: listOrderOf(sort) };
  const at = positions.decodeSorted(project, sort, cursor);
  if (at === null) throw new HttpError(400, `cursor: ${CURSOR_MESSAGE} with the same sort`);
  return { sort: listOrderOf(sort), after: { key: at.key, seq: at.position } };
}

/** The cursor of the page after the one that ended with `last`. */
export function nextCursorOf(
  last: Job,
  project: string,
  sort: Page['sort'],
  positions: PositionCodec,
): string {
  if (!sort) return positions.encode(project, last.seq);
  return positions.encodeSorted(project, listSortOf(sort), sortKeyOf(last, sort.field), last.seq);
}
