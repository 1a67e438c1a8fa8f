import {
  UNSUCCESSFUL_STATES,
  WAITING_STATES,
  type JobExecution,
  type JobRecord,
} from '../../contract';

export type StartEstimate = NonNullable<JobExecution['start_estimate']>;

/** What a waiting job waits for when the service wrote no note (a spec-only service may not). */
const UNNOTED_WAIT: Partial<Record<JobRecord['state'], string>> = {
  submitted: 'waiting for the service to take it in',
  pending: 'waiting for its schedule or for the jobs it depends on',
  runnable: 'waiting for a slot in its queue',
};

/** "less than a minute", "about 4 min", "about 2.5 h": a wait, as rough as an estimate is. */
export function aboutSpan(ms: number): string {
  if (ms < 60_000) return 'less than a minute';
  if (ms < 90 * 60_000) return `about ${Math.round(ms / 60_000)} min`;
  return `about ${Number((ms / 3_600_000).toFixed(1))} h`;
}

/** The service's estimate, labelled as one and with what it was made from. */
export function estimateText(estimate: StartEstimate): string {
  const runs = `${estimate.runs} job${estimate.runs === 1 ? '' : 's'}`;
  return (
    `estimated start in ${aboutSpan(estimate.in_ms)}, ` +
    `from the queue's run times of the last hour or two (${runs})`
  );
}

/**
 * Why a waiting job is not running, in one sentence: the service's note (its place, the slots in
 * use, or what holds it) and, when the service gives one, the estimate. Null for other states.
 */
export function waitingSentence(job: JobRecord, estimate?: StartEstimate | null): string | null {
  if (!WAITING_STATES.includes(job.state)) return null;
  const why = rowNote(job)!;
  // In the service's own words (lower case): pages and tests find them as the service wrote them.
  return estimate ? `${why}; ${estimateText(estimate)}` : why;
}

/** A row's reason, as the service words it: why it waits, why it failed; null for nothing. */
export function rowNote(job: JobRecord): string | null {
  return job.system_note ?? (WAITING_STATES.includes(job.state) ? UNNOTED_WAIT[job.state]! : null);
}

/** Whether a row's note tells why the job did not complete, for its colour. */
export const isFailureNote = (job: JobRecord) => UNSUCCESSFUL_STATES.includes(job.state);
