import type { BulkActionRecord, BulkActionState, BulkResultRecord } from '../bulk-action-records';

/** Bulk actions and their per-job results; any instance may carry one on after another. */
export interface BulkActionStore {
  create(action: BulkActionRecord): Promise<void>;
  get(id: string): Promise<BulkActionRecord | undefined>;
  /** The project's latest actions, newest first. */
  list(project: string, limit: number): Promise<BulkActionRecord[]>;
  /**
   * Takes the oldest running action that no instance holds (its lease ran out) or that `owner`
   * holds already, leasing it to `owner` until `leaseUntil`.
   */
  claim(params: Lease & { now: number }): Promise<BulkActionRecord | undefined>;
  /**
   * Stores the batch's jobs as pending results and moves the cursor past them, renewing the
   * lease, in one transaction; false, storing nothing, unless `owner` holds the running action.
   */
  beginBatch(params: BeginBatchParams): Promise<boolean>;
  /** Renews `owner`'s lease; answers the action's state, or undefined when `owner` lost it. */
  heartbeat(params: HeldAction): Promise<BulkActionState | undefined>;
  /**
   * In one transaction: records what each of these jobs answered and adds them to the counts,
   * ends a running action when `done`, and (when it was stopped) drops the results still pending;
   * answers the state after it, or undefined, recording nothing, when `owner` lost the action.
   */
  finishBatch(params: FinishBatchParams): Promise<BulkActionState | undefined>;
  /** The results of the batch a holder began and did not finish. */
  pendingResults(id: string): Promise<BulkResultRecord[]>;
  /** Gives up `owner`'s leases, so that another instance carries its actions on at once. */
  release(owner: string): Promise<void>;
  /** Stops a running action; false when it was not running. */
  stop(id: string, now: number): Promise<boolean>;
  /** Its results for jobs with a seq below `beforeSeq`, newest first. */
  results(params: BulkResultsParams): Promise<BulkResultRecord[]>;
}

/** `owner`'s lease, to hold until `leaseUntil`. */
export interface Lease {
  owner: string;
  leaseUntil: number;
}

/** The action `id`, held by `owner`, whose lease is renewed to `leaseUntil`. */
export interface HeldAction extends Lease {
  id: string;
}

export interface BulkResultsParams {
  id: string;
  beforeSeq: number;
  limit: number;
}

export type BeginBatchParams = HeldAction & { pending: BulkResultRecord[]; cursorSeq: number };

export type FinishBatchParams = HeldAction & {
  results: BulkResultRecord[];
  done: boolean;
  now: number;
};
