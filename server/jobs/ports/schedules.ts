import type { Admission, Job, JobSummary, NewJob } from '../model';

/** A schedule's state shared by every instance. */
export interface ScheduleState {
  ref: string;
  paused: boolean;
  pausedReason: string | null;
  /** The time of its last firing (or when the store first saw it). */
  lastFiredAt: number;
}

/** A firing as recorded: with the job it submitted (its state now), or a note why none. */
export interface FiringRecord {
  fireAt: number;
  job: JobSummary | null;
  note: string | null;
}

/** A firing to record; `submit`: the job it submits, stored in the same transaction. */
export interface Firing {
  schedule: string;
  fireAt: number;
  note: string | null;
  submit?: { job: NewJob; definitionFingerprint: string; admission: Admission };
}

/** Recurring schedules' shared state and firings. */
export interface ScheduleStore {
  /** Stores a row for each schedule not seen before (paused as given, fired as of `now`). */
  register(schedules: readonly { ref: string; paused: boolean }[], now: number): Promise<void>;
  states(): Promise<ScheduleState[]>;
  /**
   * Returns false when no such schedule is stored. Resuming counts as a firing at `now`: what
   * came due while paused is not run.
   */
  setPaused(params: SetPausedParams): Promise<boolean>;
  /**
   * The job of its latest firing before `before` that submitted one: never the job of the
   * firing at `before` itself, which another instance may have just stored.
   */
  lastJob(ref: string, before: number): Promise<JobSummary | undefined>;
  /**
   * In one transaction: records the firing, moves the schedule's last firing to it and stores
   * its job. A firing recorded before (another instance fired it) changes nothing: fired false.
   */
  fire(firing: Firing): Promise<{ fired: false } | { fired: true; job: Job | null }>;
  /** The newest `limit` firings, newest first. */
  recentFirings(ref: string, limit: number): Promise<FiringRecord[]>;
}

export interface SetPausedParams {
  ref: string;
  paused: boolean;
  reason: string | null;
  now: number;
}
