import type { JobListItem, JobRecord, JobTransition } from '../../contract';
import type { Job, Transition } from '../jobs/model';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** Exactly the spec's seven fields: nothing of the command or environment leaves the service. */
export function toJobRecord(job: Job): JobRecord {
  return {
    id: job.id,
    name: job.name,
    state: job.state,
    system_note: job.systemNote,
    schedule_at: isoOrNull(job.scheduleAt),
    created_at: iso(job.createdAt),
    updated_at: isoOrNull(job.updatedAt),
  };
}

export function toJobListItem(job: Job): JobListItem {
  return {
    ...toJobRecord(job),
    job_queue: job.queue,
    job_definition: job.definition,
    started_at: isoOrNull(job.startedAt),
    finished_at: isoOrNull(job.finishedAt),
    exit_code: job.exitCode,
  };
}

export function toTransition(t: Transition): JobTransition {
  return { from: t.from, to: t.to, at: iso(t.at), note: t.note };
}
