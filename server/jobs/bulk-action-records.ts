import type { BulkActionKind, JobState } from '../../contract';
import type { JobFilter } from './list-filter';

export type BulkActionState = 'running' | 'done' | 'stopped';
/** `pending`: in the batch in hand, not yet answered. */
export type BulkResult = 'pending' | 'accepted' | 'refused';

/** An action on every job a filter matched, and how far it went. */
export interface BulkActionRecord {
  id: string;
  project: string;
  action: BulkActionKind;
  /** The filter, its project aside. */
  filter: Omit<JobFilter, 'project'>;
  state: BulkActionState;
  matched: number;
  processed: number;
  accepted: number;
  refused: number;
  /** Jobs with a seq below this are still to do, newest first; those above were done or are newer. */
  cursorSeq: number;
  createdBy: string;
  createdAt: number;
  finishedAt: number | null;
}

/** What a bulk action did to one job. */
export interface BulkResultRecord {
  jobSeq: number;
  jobId: string;
  jobName: string;
  stateBefore: JobState;
  result: BulkResult;
  message: string | null;
}
