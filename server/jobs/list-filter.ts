import type { JobState, LabelSelector } from '../../contract';

/** Which jobs a list or a bulk action takes, and in what order a page of them runs. */
export interface JobListFilter {
  project: string;
  states?: readonly JobState[];
  queue?: string;
  namePrefix?: string;
  /** Jobs whose id ends with these hex digits (6 to 12, lower case): the console's short id. */
  idSuffix?: string;
  /** These jobs (ids in lower case), at most MAX_FILTER_IDS: a failure group's. */
  ids?: readonly string[];
  createdAfter?: number;
  createdBefore?: number;
  /** Jobs that reached a final state in this range (finished_at). */
  endedAfter?: number;
  endedBefore?: number;
  /** Jobs with every one of these labels. */
  labels?: readonly LabelSelector[];
  limit: number;
  /** Only jobs older than this seq: the list runs newest first (unsorted lists). */
  beforeSeq?: number;
  /** Another order than newest first, and the position after which its page starts. */
  sort?: ListOrder;
  after?: SortPosition;
}

/** A sorted list's order (list-order.ts): a field, and whether it runs descending. */
export interface ListOrder {
  field: 'state' | 'created_at' | 'started_at' | 'ended_at' | 'duration';
  descending: boolean;
}

/** Where a sorted page ended: the last job's sort key (null: it had none) and its seq. */
export interface SortPosition {
  key: number | null;
  seq: number;
}

/** The list's filters without its page: which jobs, not how many at once. */
export type JobFilter = Omit<JobListFilter, 'limit' | 'beforeSeq' | 'sort' | 'after'>;
