import type { JobState } from '../../contract';
import { createLocalStore } from './local-store';
import { replaceSensitiveValues } from './sensitive';
import type { SubmitRequest } from './submission';

/**
 * What this browser remembers of its jobs. Sensitive env values are stripped before anything
 * is written here: the payload kept for "submit again" has them empty.
 */
export interface RecentJob {
  id: string;
  name: string | null;
  lastState: JobState | null;
  submittedAt: string;
  payload: SubmitRequest | null;
}

const MAX_RECENT = 100;

export const recentJobsStore = createLocalStore<RecentJob[]>('jobdeck.recentJobs', []);
export const recentValuesStore = createLocalStore<{ definitions: string[]; queues: string[] }>(
  'jobdeck.recentValues',
  { definitions: [], queues: [] },
);
/** Cancel requests by job id: when each was accepted, so the pending indicator survives reloads. */
export const pendingCancelsStore = createLocalStore<Record<string, string>>(
  'jobdeck.pendingCancels',
  {},
);
/** State changes this browser saw, by job id. */
export const observedStore = createLocalStore<Record<string, { state: JobState; at: string }[]>>(
  'jobdeck.observed',
  {},
);

export function rememberSubmission(id: string, payload: SubmitRequest): void {
  recentJobsStore.write((jobs) =>
    [
      {
        id,
        name: payload.name ?? null,
        lastState: null,
        submittedAt: new Date().toISOString(),
        payload: replaceSensitiveValues(payload, ''),
      },
      ...jobs.filter((job) => job.id !== id),
    ].slice(0, MAX_RECENT),
  );
  const addFirst = (list: string[], value: string) =>
    [value, ...list.filter((v) => v !== value)].slice(0, 10);
  recentValuesStore.write((values) => ({
    definitions: addFirst(values.definitions, payload.job_definition),
    queues: addFirst(values.queues, payload.job_queue),
  }));
}

/** Adds a job opened by id, so it shows among the recent ones. */
export function rememberOpened(id: string): void {
  recentJobsStore.write((jobs) =>
    jobs.some((job) => job.id === id)
      ? jobs
      : [
          { id, name: null, lastState: null, submittedAt: new Date().toISOString(), payload: null },
          ...jobs,
        ].slice(0, MAX_RECENT),
  );
}

export function recordObservedState(id: string, name: string, state: JobState): void {
  recentJobsStore.write((jobs) => {
    const job = jobs.find((j) => j.id === id);
    if (!job || (job.lastState === state && job.name === name)) return jobs;
    return jobs.map((j) => (j.id === id ? { ...j, lastState: state, name } : j));
  });
  observedStore.write((observed) => {
    const seen = observed[id] ?? [];
    if (seen.at(-1)?.state === state) return observed;
    return { ...observed, [id]: [...seen, { state, at: new Date().toISOString() }] };
  });
}

/** A cancel request was accepted: keep when, so the pending indicator survives reloads. */
export function markCancelRequested(id: string): void {
  pendingCancelsStore.write((all) => ({ ...all, [id]: all[id] ?? new Date().toISOString() }));
}

export function forgetJob(id: string): void {
  recentJobsStore.write((jobs) => jobs.filter((job) => job.id !== id));
  observedStore.write(({ [id]: _removed, ...rest }) => rest);
  pendingCancelsStore.write(({ [id]: _removed, ...rest }) => rest);
}
