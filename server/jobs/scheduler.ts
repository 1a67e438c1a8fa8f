import { Cron } from 'croner';
import { isFinalState } from '../../contract';
import type { Catalog, ScheduleSettings } from './catalog';
import type { Dispatcher } from './dispatcher';
import { JobRequestError, notFoundSchedule } from './errors';
import type { Job } from './model';
import { notes } from './notes';
import type { FiringRecord, Logger, ScheduleState, ScheduleStore, SecretBox } from './ports';
import { latestAtOrBefore } from './cron-times';
import { coalesced } from './serial';
import { admissionOf, type JobStateMachine } from './state-machine';
import { planJob } from './submission';

// setTimeout's ceiling; a later firing just re-arms when this fires.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a Scheduler works with. */
export interface SchedulerParts {
  schedules: ScheduleStore;
  catalog: Catalog;
  secrets: SecretBox;
  machine: JobStateMachine;
  dispatcher: Dispatcher;
  /** Cancel Job, as a client's: the previous firing's job under `cancel_previous`. */
  cancel: (project: string, id: string, by: string) => Promise<void>;
  logger: Logger;
}

/** A schedule as the API shows it: its settings, its shared state, what comes and what was. */
export interface ScheduleView {
  settings: ScheduleSettings;
  state: ScheduleState;
  next: Date[];
  recent: FiringRecord[];
}

/**
 * Fires the configured schedules: at each one's time (a timer armed for the earliest), and on the
 * reconciler's passes as a backstop. Every instance fires every schedule; the store records one
 * firing per time, with its job in the same transaction, so a firing submits one job however
 * many instances fire it, and a crash before the commit leaves it to the next try.
 */
export class Scheduler {
  private readonly ticks = coalesced(
    () => this.tick(),
    () => !this.stopped,
  );
  private readonly crons = new Map<string, Cron>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;

  constructor(private readonly parts: SchedulerParts) {
    for (const schedule of parts.catalog.schedules) {
      // Parsed once; `paused`: croner only computes times here, it runs nothing.
      this.crons.set(
        schedule.ref,
        new Cron(schedule.cron, { timezone: schedule.timezone, paused: true }),
      );
    }
  }

  async start(): Promise<void> {
    const { schedules, catalog } = this.parts;
    await schedules.register(
      catalog.schedules.map((s) => ({ ref: s.ref, paused: s.pausedAtStart })),
      Date.now(),
    );
    this.stopped = false;
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  kick(): void {
    if (this.stopped || this.crons.size === 0) return;
    setImmediate(() => {
      this.ticks().catch((error: unknown) => {
        this.parts.logger.error({ err: error }, 'scheduler tick failed; retrying in 1 s');
        setTimeout(() => this.kick(), 1000).unref();
      });
    });
  }

  /** The project's schedules by name, each with its next firings and recent ones. */
  async list(project: string, nextShown: number, recentShown: number): Promise<ScheduleView[]> {
    const states = await this.states();
    const schedules = this.parts.catalog.schedules.filter((s) => s.project === project);
    return Promise.all(schedules.map((s) => this.view(s, states, nextShown, recentShown)));
  }

  /** Pauses (reason kept) or resumes the project's schedule; answers it as it is now. */
  async setPaused(
    project: string,
    name: string,
    paused: boolean,
    reason: string | null,
    shown: { next: number; recent: number },
  ): Promise<ScheduleView> {
    const schedule = this.parts.catalog.schedules.find(
      (s) => s.project === project && s.name === name,
    );
    const changed =
      schedule &&
      (await this.parts.schedules.setPaused({
        ref: schedule.ref,
        paused,
        reason,
        now: Date.now(),
      }));
    if (!schedule || !changed) throw notFoundSchedule(name);
    this.kick();
    return this.view(schedule, await this.states(), shown.next, shown.recent);
  }

  private async states(): Promise<Map<string, ScheduleState>> {
    return new Map((await this.parts.schedules.states()).map((s) => [s.ref, s]));
  }

  private async view(
    settings: ScheduleSettings,
    states: Map<string, ScheduleState>,
    nextShown: number,
    recentShown: number,
  ): Promise<ScheduleView> {
    const state = states.get(settings.ref) ?? {
      ref: settings.ref,
      paused: settings.pausedAtStart,
      pausedReason: null,
      lastFiredAt: Date.now(),
    };
    return {
      settings,
      state,
      next: state.paused ? [] : this.cronOf(settings).nextRuns(nextShown),
      recent: await this.parts.schedules.recentFirings(settings.ref, recentShown),
    };
  }

  private cronOf(schedule: ScheduleSettings): Cron {
    return this.crons.get(schedule.ref)!;
  }

  private async tick(): Promise<void> {
    const states = await this.states();
    for (const schedule of this.parts.catalog.schedules) {
      const state = states.get(schedule.ref);
      if (!state || state.paused) continue;
      // One schedule's failure (a store error, a contended cancel) keeps no other from its time;
      // the next tick tries it again, as its firing was not recorded.
      await this.fireDue(schedule, state).catch((error: unknown) => {
        this.parts.logger.error({ err: error, schedule: schedule.ref }, 'schedule firing failed');
        setTimeout(() => this.kick(), 1000).unref();
      });
    }
    this.arm();
  }

  private arm(): void {
    clearTimeout(this.timer);
    const now = Date.now();
    const next = Math.min(
      ...[...this.crons.values()].map((cron) => cron.nextRun(new Date(now))?.getTime() ?? Infinity),
    );
    if (!Number.isFinite(next) || this.stopped) return;
    this.timer = setTimeout(() => this.kick(), Math.min(Math.max(0, next - now), MAX_TIMER_MS));
  }

  /**
   * Fires the schedule's latest time at or before now, if it has not fired it yet. Earlier
   * times it missed (no instance ran then) are not run: `missed` decides for the latest alone.
   */
  private async fireDue(schedule: ScheduleSettings, state: ScheduleState): Promise<void> {
    const now = Date.now();
    const due = latestAtOrBefore(this.cronOf(schedule), now);
    if (!due || due.getTime() <= state.lastFiredAt) return;
    const fireAt = due.getTime();
    const { schedules } = this.parts;
    const late = now - fireAt > schedule.missedAfterMs;
    if (late && schedule.missed === 'skip') {
      await schedules.fire({ schedule: schedule.ref, fireAt, note: notes.firingMissed });
      return;
    }
    const previous = await schedules.lastJob(schedule.ref, fireAt);
    const overlapping = previous && !isFinalState(previous.state) ? previous : undefined;
    if (overlapping && schedule.overlap === 'skip') {
      const note = notes.firingSkipped(
        `${overlapping.name} (${overlapping.id})`,
        overlapping.state,
      );
      await schedules.fire({ schedule: schedule.ref, fireAt, note });
      return;
    }
    if (overlapping && schedule.overlap === 'cancel_previous') {
      await this.parts
        .cancel(schedule.project, overlapping.id, `schedule:${schedule.ref}`)
        .catch((error: unknown) => {
          // It ended meanwhile (409): nothing left to cancel.
          if (!(error instanceof JobRequestError)) throw error;
        });
    }
    const { job, definitionFingerprint } = planJob(
      {
        job_definition: schedule.definition,
        job_queue: schedule.queue,
        name: `${schedule.name}-${firingStamp(fireAt)}`,
        container_cmd_parameter: schedule.parameters,
        labels: schedule.labels,
      },
      schedule.project,
      this.parts.catalog,
      this.parts.secrets,
      now,
      `schedule:${schedule.ref}`,
    );
    const fired = await schedules.fire({
      schedule: schedule.ref,
      fireAt,
      note: late ? notes.firingLate : null,
      submit: { job, definitionFingerprint, admission: admissionOf(job, now) },
    });
    if (fired.fired && fired.job) this.admitted(fired.job);
  }

  private admitted(job: Job): void {
    this.parts.machine.announce(job, 'submitted');
    this.parts.dispatcher.admitted(job);
  }
}

/** `20261126T020000Z`: the firing's time in a job name (letters, digits, . _ - only). */
const firingStamp = (at: number) =>
  new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
