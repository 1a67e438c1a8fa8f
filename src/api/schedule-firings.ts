import type { JobListItem, Schedule } from '../../contract';

/**
 * A job event applied to the schedules' recent firings: the firing that submitted the job shows
 * its state now. The same array when no firing names the job, so the cache is left untouched.
 */
export function withFiringState(schedules: Schedule[], job: JobListItem): Schedule[] {
  const showsJob = (schedule: Schedule) =>
    schedule.recent.some((firing) => firing.job_id === job.id && firing.state !== job.state);
  if (!schedules.some(showsJob)) return schedules;
  return schedules.map((schedule) =>
    showsJob(schedule)
      ? {
          ...schedule,
          recent: schedule.recent.map((firing) =>
            firing.job_id === job.id ? { ...firing, state: job.state } : firing,
          ),
        }
      : schedule,
  );
}

/**
 * A job no firing shown names, submitted to a schedule's definition and queue: most likely a
 * firing the list does not show yet, so the list is worth reading again.
 */
export function mayBeNewFiring(schedules: Schedule[], job: JobListItem): boolean {
  return schedules.some(
    (schedule) =>
      !schedule.paused &&
      schedule.job_definition === job.job_definition &&
      schedule.job_queue === job.job_queue &&
      !schedule.recent.some((firing) => firing.job_id === job.id),
  );
}
