import type { DurationFigures } from './trends';

/** Fewer recent runs than this say too little of the next ones: no estimate. */
export const ESTIMATE_MIN_RUNS = 3;

/**
 * When a job waiting for a slot may start: each round of `slots` jobs ahead of it (and its own
 * round's turn) takes the queue's median recent run time. An estimate: it knows nothing of how
 * long the running jobs have left, nor of the jobs' own commands.
 */
export interface StartEstimate {
  /** From now, in ms. */
  inMs: number;
  /** Its place among the jobs waiting in its queue (1: next). */
  place: number;
  /** Slots it may start in: the queue's max_running, or the service's when lower. */
  slots: number;
  /** The median of the recent run times the estimate is made from, and how many there were. */
  runP50Ms: number;
  runs: number;
}

export function estimateStart(
  place: number,
  slots: number,
  run: DurationFigures,
): StartEstimate | undefined {
  if (run.jobs < ESTIMATE_MIN_RUNS || run.p50Ms === null || slots < 1) return undefined;
  const runP50Ms = Math.round(run.p50Ms);
  return { inMs: Math.ceil(place / slots) * runP50Ms, place, slots, runP50Ms, runs: run.jobs };
}
