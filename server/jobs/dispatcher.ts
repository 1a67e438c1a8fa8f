import { SLOT_STATES, isFinalState } from '../../contract';
import type { Assignment } from './assignment';
import type { Handout } from './handout';
import type { HostCapacity } from './capacity';
import type { Catalog, QueueSettings } from './catalog';
import { settleDependencies } from './dependencies';
import type { EngineHealth } from './engine-health';
import { LeaseLostError, type LeaseFence } from './lease-fence';
import type { Job } from './model';
import { notes } from './notes';
import type { JobStore, Logger, Signals } from './ports';
import type { Reclaimer } from './preemption';
import type { QueueControls } from './queue-controls';
import { hasQuotas, type ClaimQuota } from './quotas';
import { DISPATCH_LOCK } from './reconciler';
import type { Runner } from './runner';
import type { ShareLedger } from './share-ledger';
import { coalesced, throttled, type KeyedSerial } from './serial';
import { admissionOf, type JobStateMachine } from './state-machine';

// setTimeout's ceiling; a later schedule_at just re-arms when this fires.
const MAX_TIMER_MS = 2 ** 31 - 1;
// How often at most an instance that does not dispatch signals the one that does: each signal is
// a NOTIFY that wakes every instance, and one a tick was ~1 a job at eight instances under load.
// A lone submit still signals at once.
const DISPATCH_SIGNAL_MS = 50;

/** What a Dispatcher works with. */
export interface DispatcherParts {
  store: JobStore;
  machine: JobStateMachine;
  catalog: Catalog;
  /** Whether each queue is paused and how many it runs, as operators set them now. */
  controls: QueueControls;
  runner: Runner;
  health: EngineHealth;
  /** The engine's hosts, which claims place jobs on by what they ask for. */
  capacity: HostCapacity;
  /** Fair share between projects and queues: who is offered room next. */
  shares: ShareLedger;
  locks: KeyedSerial;
  signals: Signals;
  logger: Logger;
  /** This instance's id: its own dispatch signals come back to it, and change nothing. */
  instanceId: string;
  /** Whether this instance is the one that claims (DispatchLease), and the fence of its claims. */
  lease: { readonly fence: LeaseFence | undefined; lost(): void };
  /** To whom the jobs it claims go. */
  assignment: Assignment;
  /** Launches or signals what it claimed. */
  handout: Handout;
  /** Takes back lent quota at once where a lender's quota says so, after each claim round. */
  reclaimer?: Pick<Reclaimer, 'pass'>;
}

/**
 * Moves jobs forward when something happens: a submit, a job leaving a slot or ending (on any
 * instance sharing the store: they signal each other), the engine answering again, the timer armed for
 * the earliest schedule_at, and the reconciler's passes as a backstop. Ticks never overlap; a
 * kick during a tick makes it run once more. Containers are started only while the
 * engine answers; meanwhile jobs wait as runnable and say why.
 *
 * One instance at a time dispatches: the holder of the dispatcher lease (DispatchLease). It
 * promotes, claims and gives each job claimed to a live instance in turn (Assignment), launching
 * its own and signalling the others, whose runners launch theirs ('assigned', and the reconcile
 * pass as the safety net). Every other instance's tick only wakes the holder: a submit there, a
 * slot freed there, signal it instead of claiming, so a job costs the same transactions however
 * many instances share the store.
 *
 * A tick after local submits alone claims only in their queues: a new job frees no slot and
 * promotes no schedule, and under load the full tick's queries (and a second tick for the
 * instance's own signal) were a measurable share of a submit's CPU time.
 */
export class Dispatcher {
  private readonly ticks = coalesced(
    () => this.tick(),
    () => !this.stopped,
  );
  private submittedEvaluated = false;
  private scheduled = false;
  /** The next tick promotes due jobs, claims in every queue and re-arms the timer. */
  private fullTickAsked = true;
  /** Queues that local submits gave runnable jobs since the last tick. */
  private readonly queuesWithNewJobs = new Set<string>();
  /** Whether the next tick tells the other instances to dispatch too. */
  private broadcastAsked = false;
  private timer: NodeJS.Timeout | undefined;
  /**
   * The earliest schedule_at the armed timer is for (Infinity: none). -Infinity while it is
   * being read: a job admitted meanwhile may be missing from the answer, so it asks again.
   */
  private timerDueAt = -Infinity;
  private stopped = true;

  private readonly store: JobStore;
  private readonly machine: JobStateMachine;
  private readonly catalog: Catalog;
  private readonly controls: QueueControls;
  private readonly runner: Runner;
  private readonly health: EngineHealth;
  private readonly capacity: HostCapacity;
  private readonly shares: ShareLedger;
  private readonly locks: KeyedSerial;
  private readonly signals: Signals;
  private readonly logger: Logger;
  private readonly instanceId: string;
  private readonly lease: DispatcherParts['lease'];
  private readonly assignment: Assignment;
  private readonly handout: Handout;
  private readonly reclaimer: DispatcherParts['reclaimer'];

  constructor(parts: DispatcherParts) {
    this.store = parts.store;
    this.machine = parts.machine;
    this.catalog = parts.catalog;
    this.controls = parts.controls;
    this.runner = parts.runner;
    this.health = parts.health;
    this.capacity = parts.capacity;
    this.shares = parts.shares;
    this.locks = parts.locks;
    this.signals = parts.signals;
    this.logger = parts.logger;
    this.instanceId = parts.instanceId;
    this.lease = parts.lease;
    this.assignment = parts.assignment;
    this.handout = parts.handout;
    this.reclaimer = parts.reclaimer;
    // A slot frees when a job leaves starting/running/cancelling for good, or to wait for its next
    // attempt: another instance's runnable job may take it too, and the full tick arms the timer
    // for the attempt's not_before.
    // A job that ends may be what others wait for: ending outside a slot (cancelled while it
    // waited), it is checked here; every instance checks on its full tick anyway.
    this.machine.onTransition((job, from) => {
      const leftSlot = isFinalState(job.state) || job.state === 'runnable';
      if (leftSlot && SLOT_STATES.includes(from)) {
        this.shares.attemptEnded(job);
        this.wakeAll();
      } else if (isFinalState(job.state)) this.kick();
    });
    this.signals.subscribe((signal) => {
      // Only the dispatcher acts on it; telling on would echo between the others.
      if (signal.kind === 'dispatch' && signal.from !== this.instanceId && this.lease.fence) {
        this.kickHere();
      }
    });
    this.health.onChange((available) => {
      if (available) this.kickHere();
    });
    // Every instance reads a change itself (signal or pass): a local kick is enough.
    this.controls.onChange(() => this.kickHere());
  }

  start(): void {
    this.stopped = false;
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.signalDispatcher.cancel();
  }

  /** This instance took the dispatcher lease (a full tick now), or lost it (its timer is off). */
  leaseChanged(held: boolean): void {
    if (held) return this.kickHere();
    clearTimeout(this.timer);
  }

  /** Dispatches at once: here when this instance dispatches, else the dispatcher, signalled. */
  wakeAll(): void {
    this.broadcastAsked = true;
    this.kick();
  }

  /**
   * A job this instance just stored: claimed in its queue (here when this instance dispatches,
   * else by the dispatcher, which it signals), or the timer re-armed if it is due before it.
   */
  admitted(job: Job): void {
    // What it waits for may have ended before it was stored, unseen by that job's check.
    if (job.state === 'pending' && job.dependsOn.length > 0) return this.kick();
    if (job.state === 'pending') {
      if (job.scheduleAt !== null && job.scheduleAt < this.timerDueAt) this.wakeAll();
      return;
    }
    if (job.state !== 'runnable' || this.liveQueue(job.queue)?.paused !== false) return;
    this.queuesWithNewJobs.add(job.queue);
    this.broadcastAsked = true;
    this.schedule();
  }

  /**
   * A full tick: promotes, claims in every queue, re-arms the timer. Here when this instance
   * dispatches; else the dispatcher's, signalled (what asked may be news only here: a job that
   * ended, an array's children released).
   */
  kick(): void {
    if (!this.lease.fence) this.broadcastAsked = true;
    this.kickHere();
  }

  /** A full tick here alone: a reconcile pass's backstop (every instance makes its own). */
  kickHere(): void {
    this.fullTickAsked = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.ticks().catch((error: unknown) => {
        this.logger.error({ err: error }, 'dispatcher tick failed; retrying in 1 s');
        setTimeout(() => this.kickHere(), 1000).unref();
      });
    });
  }

  private async tick(): Promise<void> {
    const full = this.fullTickAsked;
    const queues = full ? undefined : new Set(this.queuesWithNewJobs);
    this.fullTickAsked = false;
    this.queuesWithNewJobs.clear();
    const fence = this.lease.fence;
    // The holder claims for all: it tells nobody. Another instance tells the holder instead; any
    // job scheduled here may be due before the holder's timer, so it says so too (timerDueAt).
    if (this.broadcastAsked) {
      if (fence) this.broadcastAsked = false;
      else this.broadcast();
    }
    if (!fence) {
      this.timerDueAt = Infinity;
      return;
    }
    if (full) {
      if (!this.submittedEvaluated) await this.evaluateSubmitted();
      await settleDependencies(this.store, this.machine);
      await this.promoteDue();
    }
    if (this.health.available) {
      await this.locks.run(DISPATCH_LOCK, async () => {
        await this.fillSlots(fence, queues);
        if (this.lease.fence) await this.reclaimer?.pass();
      });
    }
    if (full) await Promise.all([this.armTimer(), this.shares.flush()]);
  }

  /** Once per tick however many submits asked for it, and at most every DISPATCH_SIGNAL_MS. */
  private broadcast(): void {
    this.broadcastAsked = false;
    this.signalDispatcher();
  }

  private readonly signalDispatcher = throttled(() => {
    this.signals.publish({ kind: 'dispatch', from: this.instanceId }).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'could not signal the other instances; their passes will');
    });
  }, DISPATCH_SIGNAL_MS);

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

  /**
   * Offers room queue by queue; `only`: in these queues alone. With several queues, fair share
   * decides who is next (share-ledger.ts): each claim starts one job, then the queues are ranked
   * again with it counted, so a burst of room is dealt out by share, not to the first queue; once
   * one queue alone is left asking, its claim takes the rest of the room at once. A
   * queue that starts nothing is not asked again this tick. Where the engine reports hosts, each
   * claim places its jobs on them; while they cannot be read, nothing is claimed (a job started
   * unplaced could over-commit a host), and the next tick tries again. Where quotas are set, each
   * claim is held to the room its queue's and project's quotas leave (quotas.ts).
   */
  private async fillSlots(fence: LeaseFence, only?: ReadonlySet<string>): Promise<void> {
    const asking = this.catalog.queuesByPriority.filter(
      (settings) => (!only || only.has(settings.ref)) && !this.controls.live(settings).paused,
    );
    const quotas = hasQuotas(this.catalog.fairShare.quotas);
    // Under quotas, the round reads every queue not paused for waiting work, not only those
    // asking: a lender's waiting jobs hold back what it lends to a queue a submit alone woke.
    const round =
      asking.length > 1 || (quotas && asking.length > 0) ? await this.shares.round() : undefined;
    while (asking.length > 0) {
      const settings = round ? round.next(asking)! : asking[0]!;
      // The last queue asking shares the room with no other: one claim starts all it can, not one
      // transaction a job.
      const starts = round && asking.length > 1 ? 1 : undefined;
      const claimed = await this.claimIn(fence, settings, starts, round?.room(settings));
      if (claimed === null) return;
      if (round && claimed.length > 0) round.started(settings.ref, claimed);
      if (starts === undefined || claimed.length === 0) asking.splice(asking.indexOf(settings), 1);
    }
  }

  /**
   * One claim in the queue, at most `starts` jobs, handed out to the live instances; null while
   * the engine's hosts cannot be read or once the lease is lost.
   */
  private async claimIn(
    fence: LeaseFence,
    settings: QueueSettings,
    starts?: number,
    quota?: ClaimQuota,
  ): Promise<Job[] | null> {
    const queue = this.controls.live(settings);
    const placement = await this.capacity.placementFor(settings.placement).catch((error) => {
      this.logger.warn({ err: error }, "could not read the engine's hosts; claiming later");
      return null;
    });
    if (placement === null) return null;
    const claimed = await this.machine
      .claim(
        {
          queue: settings.ref,
          limit: queue.maxRunning,
          queueMax: queue.maxRunning,
          serviceMax: this.catalog.maxRunning,
          owners: this.assignment.owners(),
          lease: fence,
          ...(starts !== undefined && { starts }),
          ...(placement && { placement }),
          ...(quota && { quota }),
        },
        (job) => notes.creatingContainer(job.image),
      )
      .catch((error: unknown) => {
        if (!(error instanceof LeaseLostError)) throw error;
        this.lease.lost();
        return null;
      });
    if (claimed === null) return null;
    this.assignment.gave(claimed.length);
    this.handout.handOut(claimed);
    return claimed;
  }

  private async armTimer(): Promise<void> {
    clearTimeout(this.timer);
    this.timerDueAt = -Infinity;
    const next = await this.store.nextScheduleAt(Date.now());
    this.timerDueAt = next ?? Infinity;
    if (next === undefined || this.stopped) return;
    this.timer = setTimeout(
      () => this.kickHere(),
      Math.min(Math.max(0, next - Date.now()), MAX_TIMER_MS),
    );
  }

  private liveQueue(ref: string) {
    const settings = this.catalog.queue(ref);
    return settings && this.controls.live(settings);
  }
}
