import { SLOT_STATES, isFinalState } from '../../contract';
import type { Catalog } from './catalog';
import type { EngineHealth } from './engine-health';
import type { Job } from './model';
import { notes } from './notes';
import type { JobStore, Logger, Signals } from './ports';
import { DISPATCH_LOCK } from './reconciler';
import type { Runner } from './runner';
import { coalesced, type KeyedSerial } from './serial';
import { admissionOf, type JobStateMachine } from './state-machine';

const totalOf = (countsByQueue: Map<string, number>) =>
  [...countsByQueue.values()].reduce((sum, n) => sum + n, 0);

// setTimeout's ceiling; a later schedule_at just re-arms when this fires.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Moves jobs forward when something happens: a submit or a job leaving a slot (on any instance
 * sharing the store: they signal each other), the engine answering again, the timer armed for
 * the earliest schedule_at, and the reconciler's passes as a backstop. Ticks never overlap; a
 * kick during a tick makes it run once more. Containers are started only while the
 * engine answers; meanwhile jobs wait as runnable and say why.
 */
export class Dispatcher {
  private readonly ticks = coalesced(
    () => this.tick(),
    () => !this.stopped,
  );
  private submittedEvaluated = false;
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;

  constructor(
    private readonly store: JobStore,
    private readonly machine: JobStateMachine,
    private readonly catalog: Catalog,
    private readonly runner: Runner,
    private readonly health: EngineHealth,
    private readonly locks: KeyedSerial,
    private readonly signals: Signals,
    private readonly logger: Logger,
  ) {
    // A slot frees when a job leaves starting/running/cancelling for good: another instance's
    // runnable job may take it too.
    machine.onTransition((job, from) => {
      if (isFinalState(job.state) && SLOT_STATES.includes(from)) this.wakeAll();
    });
    signals.subscribe((signal) => {
      if (signal.kind === 'dispatch') this.kick();
    });
    health.onChange((available) => {
      if (available) this.kick();
    });
  }

  start(): void {
    this.stopped = false;
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Dispatches here at once, and on every other instance sharing the store. */
  wakeAll(): void {
    this.kick();
    this.signals.publish({ kind: 'dispatch' }).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'could not signal the other instances; their passes will');
    });
  }

  kick(): void {
    if (this.stopped || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.ticks().catch((error: unknown) => {
        this.logger.error({ err: error }, 'dispatcher tick failed; retrying in 1 s');
        setTimeout(() => this.kick(), 1000).unref();
      });
    });
  }

  private async tick(): Promise<void> {
    if (!this.submittedEvaluated) await this.evaluateSubmitted();
    await this.promoteDue();
    if (this.health.available) await this.locks.run(DISPATCH_LOCK, () => this.fillSlots());
    await this.armTimer();
  }

  /**
   * New jobs are admitted in their insert's transaction (JobStateMachine.admit): only a store
   * written by an earlier release holds submitted jobs, all of them there before the first tick.
   */
  private async evaluateSubmitted(): Promise<void> {
    const now = Date.now();
    for (const job of await this.store.jobsInStates(['submitted'])) {
      const { to, note } = admissionOf(job, now);
      await this.machine.move(job, to, note);
    }
    this.submittedEvaluated = true;
  }

  private async promoteDue(): Promise<void> {
    for (const job of await this.store.dueJobs(Date.now())) {
      await this.machine.move(job, 'runnable', null);
    }
  }

  private async fillSlots(): Promise<void> {
    for (const queue of this.catalog.queuesByPriority) {
      if (queue.paused) continue;
      const claimed = await this.machine.claim(
        {
          queue: queue.ref,
          limit: queue.maxRunning,
          queueMax: queue.maxRunning,
          serviceMax: this.catalog.maxRunning,
        },
        (job) => notes.creatingContainer(job.image),
      );
      for (const job of claimed) this.runner.launch(job);
    }
  }

  private async armTimer(): Promise<void> {
    clearTimeout(this.timer);
    const next = await this.store.nextScheduleAt();
    if (next === undefined || this.stopped) return;
    this.timer = setTimeout(
      () => this.kick(),
      Math.min(Math.max(0, next - Date.now()), MAX_TIMER_MS),
    );
  }

  /** What a runnable job is waiting for, counted now. */
  async waitingNote(job: Job, counts?: Map<string, number>): Promise<string> {
    if (this.health.unreachableSince !== null) {
      return notes.waitingForEngine(this.health.unreachableSince);
    }
    const queue = this.catalog.queue(job.queue);
    if (queue?.paused) return notes.queuePaused(job.queue);
    const active = counts ?? (await this.store.activeCountsByQueue());
    const inQueue = active.get(job.queue) ?? 0;
    const total = totalOf(active);
    if (queue && inQueue < queue.maxRunning && total >= this.catalog.maxRunning) {
      return notes.waitingForServiceSlot(total, this.catalog.maxRunning);
    }
    return notes.waitingForQueueSlot(inQueue, queue?.maxRunning ?? 0, job.queue);
  }
}
