import type { JobListItem } from '../../contract';

/** A job as the list shows it, for console unit tests: a finished demo job unless told otherwise. */
export function listItem(id: string, fields: Partial<JobListItem> = {}): JobListItem {
  return {
    id,
    name: id,
    state: 'completed',
    system_note: null,
    schedule_at: null,
    created_at: '2026-11-21T10:00:00.000Z',
    updated_at: null,
    job_queue: 'demo::default',
    job_definition: 'demo::hello:1',
    started_at: null,
    finished_at: null,
    exit_code: null,
    ...fields,
  };
}
