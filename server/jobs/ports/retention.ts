/** What a prune of one queue would delete now. */
export interface Prunable {
  /** Jobs, an array's children counted. */
  jobs: number;
  /** When the longest-finished of them finished; null when there are none. */
  oldestFinishedAt: number | null;
}

/** Finished jobs past their queue's retention, deleted with everything kept of them. */
export interface RetentionStore {
  /**
   * In one transaction, deletes up to about `limit` of the queue's final jobs that finished
   * before `before`, oldest first, with their transitions, attempts, kept output (taken off the
   * project's total), labels, dependency edges and the schedule firings that name them. An
   * array's parent goes only with its last children, and only once it is final itself; its
   * final children go with it, a batch at a time. The job holding the newest state change is
   * kept: the event streams start from that change. Returns how many jobs it deleted (fewer
   * than `limit`: none is left). Two instances pruning at once delete each job once.
   */
  pruneFinished(params: PruneBatch & { queue: string }): Promise<number>;
  /**
   * Deletes up to `limit` of the schedule's firings before `before` that submitted no job
   * (skipped, or refused, with their notes); how many went. A firing that submitted one goes
   * with its job.
   */
  pruneFirings(params: PruneBatch & { schedule: string }): Promise<number>;
  /**
   * Deletes up to `limit` results of the project's oldest bulk action that ended before
   * `before`, and the action with its last results; `limit` while there may be more, 0 once
   * none is left.
   */
  pruneBulkActions(params: PruneBatch & { project: string }): Promise<number>;
  /**
   * Forgets what the store keeps to count finished jobs quickly (countByQueue) for those that
   * finished before `before`: counts from an earlier `since` are no longer exact.
   */
  forgetFinishedCounts(before: number): Promise<void>;
  /** Deletes up to `limit` Idempotency-Keys that expired before `before`; how many went. */
  pruneIdempotencyKeys(params: PruneBatch): Promise<number>;
  /** What pruneFinished would delete of the queue now (the newest change's job left out). */
  prunable(queue: string, before: number): Promise<Prunable>;
  /**
   * Gives the space that deletes freed back to the file system, a bounded step at a time, where
   * the database does not reuse it by itself; returns the bytes given back.
   */
  reclaimSpace(): Promise<number>;
}

/** Up to about `limit` rows of what ended (or happened) before `before`. */
export interface PruneBatch {
  before: number;
  limit: number;
}
