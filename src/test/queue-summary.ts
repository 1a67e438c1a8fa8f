import type { QueueSummary } from '../../contract';

const counts = { submitted: 0, pending: 0, runnable: 0, starting: 0, running: 0, cancelling: 0 };
const finals = { completed: 0, failed: 0, timeout: 0, cancelled: 0, error: 0 };

/** An idle queue `demo::<name>` as the service lists it, for the overview's tests. */
export const idleQueue = (name: string, extra: Partial<QueueSummary> = {}): QueueSummary => ({
  queue: `demo::${name}`,
  max_running: 2,
  priority: 0,
  paused: false,
  now: counts,
  last_hour: finals,
  last_day: finals,
  ...extra,
});
