import { SLOT_STATES, isFinalState } from '../../contract';
import type { EngineHealth } from './engine-health';
import type { JobLogs } from './job-logs';
import { JobSecrets } from './job-secrets';
import { JobLostError, type Job } from './model';
import { notes } from './notes';
import { deadlineOf, stopAskedAt } from './outcome';
import { knownServes, type KnownJob } from './known-job';
import { moveToEnd } from './job-end';
import {
  EngineUnavailableError,
  type ContainerRuntime,
  type JobStore,
  type Logger,
  type SecretBox,
  type Signals,
  type Workload,
} from './ports';
import { JobHolds, type Launch } from './job-holds';
import { PlacementNotes } from './placement-notes';
import { KeyedSerial } from './serial';
import { limitsOf, type ContainerDefaults } from './container-limits';
import { workloadSpecOf } from './workload-spec';
import { DECIDE_ATTEMPTS, type JobStateMachine } from './state-machine';
import { OWNED, afterLaunchFailure, messageOf } from './launch-failure';
import type { UsageSampler } from './usage-sampler';

export interface RunnerOptions {
  defaults: ContainerDefaults;
  /** This instance: the runner settles only the jobs it owns. */
  owner: string;
  /** How long a launch may be with the engine before the reconciler settles its job anyway. */
  launchNoticedAfterMs: number;
  /** Whether other instances may have taken this one's jobs over (Membership.ownershipInDoubt). */
  ownershipInDoubt: () => boolean;
}

// setTimeout's ceiling; a later deadline is caught by the reconciler's passes instead.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a Runner works with. */
export interface RunnerParts {
  runtime: ContainerRuntime;
  machine: JobStateMachine;
  store: JobStore;
  secrets: SecretBox;
  health: EngineHealth;
  signals: Signals;
  logger: Logger;
  logs: JobLogs;
  usage: UsageSampler;
  options: RunnerOptions;
}

/**
 * Runs one workload per job and settles each job against what the engine reports. `settle` is
 * level-driven: it looks at the job's state and its workload now and does what is missing
 * (follow it, stop it, record how it ended, requeue it), so whoever calls it — the launch, the
 * fast path when a container ends, the reconciler's regular pass — reaches the same outcome.
 */
export class Runner {
  /** Its launches with the engine and since when, waits on workloads, stops asked (job-holds.ts). */
  private readonly holds: JobHolds;
  private readonly serial = new KeyedSerial();
  private readonly placementNotes: PlacementNotes;
  private stopped = false;

  private readonly runtime: ContainerRuntime;
  private readonly machine: JobStateMachine;
  private readonly store: JobStore;
  private readonly secrets: SecretBox;
  private readonly health: EngineHealth;
  private readonly signals: Signals;
  private readonly logger: Logger;
  private readonly logs: JobLogs;
  private readonly usage: UsageSampler;
  private readonly options: RunnerOptions;

  constructor(parts: RunnerParts) {
    this.runtime = parts.runtime;
    this.machine = parts.machine;
    this.store = parts.store;
    this.secrets = parts.secrets;
    this.health = parts.health;
    this.signals = parts.signals;
    this.logger = parts.logger;
    this.logs = parts.logs;
    this.usage = parts.usage;
    this.options = parts.options;
    this.holds = new JobHolds({
      store: parts.store,
      owner: parts.options.owner,
      ownershipInDoubt: parts.options.ownershipInDoubt,
      launchNoticedAfterMs: parts.options.launchNoticedAfterMs,
      logger: parts.logger,
    });
    this.placementNotes = new PlacementNotes(parts.store, parts.options.owner, parts.logger);
    this.signals.subscribe((signal) => {
      if (signal.kind === 'job') void this.settle(signal.jobId);
    });
  }

  /** Settles the job now, wherever it runs: here, or on the instance that owns it. */
  nudge(jobId: string): void {
    void this.settle(jobId);
    this.signals.publish({ kind: 'job', jobId }).catch((error: unknown) => {
      this.logger.warn(
        { jobId, err: error },
        'could not signal the other instances; their passes will',
      );
    });
  }

  /** Settles nothing more: what is under way is left for the next start to adopt. */
  stop(): void {
    this.stopped = true;
    this.placementNotes.stop();
  }

  /** Starts a job that is in `starting`; returns at once. */
  launch(job: Job): void {
    const launch: Launch = { since: Date.now() };
    this.holds.launching.set(job.id, launch);
    this.track(this.launchNow(job, launch));
  }

  /** Whether this process launches, follows or stops the job (handout.ts: launchGiven). */
  actsOn(jobId: string): boolean {
    // Settling too: a launch hands its workload to a settle, whose move out of `starting` may
    // still be on its way to the store (batched), so the job still reads as given and unlaunched.
    return this.holds.actsOn(jobId) || this.serial.busy(jobId);
  }

  /**
   * Brings the job in line with its workload (looked up afresh unless given). `takenOver`: the
   * job was just taken over from a lost instance. `listed`: the job as a reconcile pass read it
   * with all the others just now, its first decision made from that read rather than one more;
   * a change since is followed by a settle of its own (a cancel's signal). Never throws.
   */
  settle(
    jobId: string,
    observed?: Workload | null,
    takenOver = false,
    listed?: Job,
  ): Promise<void> {
    return this.settleFrom(jobId, observed, takenOver, listed && { job: listed, listed: true });
  }

  /** settle, its first decision made from a copy of the job when one serves (known-job.ts). */
  private settleFrom(
    jobId: string,
    observed: Workload | null | undefined,
    takenOver: boolean,
    known?: KnownJob,
  ): Promise<void> {
    return this.serial
      .run(jobId, () => this.settleNow(jobId, observed, takenOver, known))
      .catch((error: unknown) =>
        error instanceof JobLostError
          ? this.holds.leave(jobId, error.ownedBy)
          : this.engineTrouble(error, jobId),
      );
  }

  private track(work: Promise<void>): void {
    void work.catch((error: unknown) => {
      this.logger.error({ err: error }, 'runner failed unexpectedly');
    });
  }

  private async launchNow(job: Job, launch: Launch): Promise<void> {
    // A later launch of the job (after this one was noticed as stuck) is not this one's to end.
    const ended = () => {
      if (this.holds.launching.get(job.id) === launch) this.holds.launching.delete(job.id);
    };
    // Apart from the engine's calls: a store that fails is no launch failure (the reconciler's).
    const held = await this.holds.stillHeld(job).catch((error: unknown) => {
      ended();
      throw error;
    });
    if (!held) return;
    let secrets: JobSecrets | undefined;
    let workload: Workload;
    try {
      secrets = new JobSecrets(job, this.secrets);
      // In the job's queue: the settle that ended the earlier attempt may still be removing it.
      if (job.attempt > 1) await this.serial.run(job.id, () => this.removeEarlierAttempt(job));
      workload = await this.runtime.launch(workloadSpecOf(job, secrets, this.options.defaults));
    } catch (error) {
      ended();
      await this.launchFailed(job.id, error, secrets);
      return;
    }
    // Left meanwhile (lost to another instance, said once): decided from a fresh read instead.
    const stillHeld = this.holds.launching.get(job.id) === launch;
    ended();
    const known = stillHeld && { job, listed: false, settledSince: !launch.settleSkipped };
    await this.settleFrom(job.id, workload, false, known || undefined);
  }

  /** A workload of an earlier attempt left by a crash before its removal: not this attempt's. */
  private async removeEarlierAttempt(job: Job): Promise<void> {
    const left = await this.runtime.inspect(job.id);
    if (left && left.attempt < job.attempt) await this.runtime.remove(left);
  }

  private async launchFailed(jobId: string, error: unknown, secrets?: JobSecrets) {
    if (this.stopped) return;
    const { machine, health, logger } = this;
    await afterLaunchFailure({ machine, health, logger }, jobId, error, secrets).catch(
      (failure: unknown) => {
        if (!(failure instanceof JobLostError)) throw failure;
        this.holds.leave(jobId, failure.ownedBy);
      },
    );
  }

  private async settleNow(
    jobId: string,
    observed: Workload | null | undefined,
    takenOver: boolean,
    known: KnownJob | undefined,
  ): Promise<void> {
    if (this.stopped || this.holds.launchUnderWay(jobId)) return;
    // "Gone" is only believed from a fresh look: a listing from a moment ago misses new workloads.
    let workload = observed ?? (await this.runtime.inspect(jobId));
    for (let attempt = 0; attempt < DECIDE_ATTEMPTS; attempt += 1) {
      const job =
        attempt === 0 && known && knownServes(known, workload)
          ? known.job
          : await this.store.getJob(jobId);
      if (!job) return;
      if (workload && workload.attempt < job.attempt) {
        // An earlier attempt's, recorded already: left by a crash before its removal.
        await this.runtime.remove(workload);
        workload = null;
      }
      if (isFinalState(job.state)) {
        // Its outcome is recorded: the workload is left over from a crash during clean-up.
        if (workload) await this.runtime.remove(workload);
        return;
      }
      // Another live instance follows it; a cancel reaches that one through a signal.
      if (job.owner !== this.options.owner) {
        if (this.holds.actsOn(jobId)) this.holds.leave(jobId, job.owner);
        return;
      }
      if (!SLOT_STATES.includes(job.state)) return;
      if (await this.step(job, workload, takenOver)) return;
      workload = await this.runtime.inspect(jobId); // the job moved meanwhile: look again
    }
    this.logger.error({ jobId }, `could not settle a job after ${DECIDE_ATTEMPTS} attempts`);
  }

  /** One decision on a job holding a slot; false when it moved under us (decide again). */
  private async step(job: Job, workload: Workload | null, takenOver: boolean): Promise<boolean> {
    const now = Date.now();
    this.placementNotes.decided(job, workload);
    if (job.state === 'starting') {
      if (!workload) return this.moved(job, 'runnable', notes.requeuedNeverCreated);
      if (workload.status === 'created') {
        // Made but never started (the service stopped in between): launching again starts it.
        this.launch(job);
        return true;
      }
      if (workload.status === 'pending') {
        this.follow(job, workload);
        return true;
      }
      // Ended without ever having run (a cluster engine accepted it, then could not start it):
      // its history must not say it ran.
      if (
        workload.status === 'exited' &&
        workload.startedAt === null &&
        workload.exitCode === null
      ) {
        return this.record(job, workload);
      }
      const running = await this.machine.move(
        job,
        'running',
        workload.node && notes.runningOn(workload.node),
        { startedAt: workload.startedAt ?? now, containerId: workload.id, node: workload.node },
        OWNED,
      );
      return running ? this.step(running, workload, takenOver) : false;
    }
    if (!workload) {
      return job.state === 'cancelling'
        ? this.moved(job, 'cancelled', notes.cancelledContainerGone, { finishedAt: now })
        : this.moved(job, 'error', takenOver ? notes.lostWithInstance : notes.vanished, {
            finishedAt: now,
          });
    }
    if (workload.status === 'exited') return this.record(job, workload);
    if (
      job.state === 'cancelling' &&
      (workload.status === 'created' || workload.status === 'pending')
    ) {
      await this.runtime.remove(workload);
      return this.moved(job, 'cancelled', notes.cancelledBeforeContainer, { finishedAt: now });
    }
    this.follow(job, workload);
    const stopAt = stopAskedAt(job, now);
    if (stopAt !== undefined) this.stopOnce(job, workload, stopAt + job.stopGraceSeconds * 1000);
    return true;
  }

  private async moved(
    job: Job,
    to: Job['state'],
    note: string,
    fields?: { finishedAt: number },
  ): Promise<boolean> {
    return (await this.machine.move(job, to, note, fields, OWNED)) !== undefined;
  }

  /**
   * Records how the workload ended, its output with it in one transaction; removes it only once
   * the outcome is stored, so a crash in between leaves a workload to remove, never an outcome
   * (or its output) lost.
   */
  private async record(job: Job, workload: Workload): Promise<boolean> {
    const { machine, store, secrets, health, logs, usage, options } = this;
    const moved = await moveToEnd(
      { machine, store, secrets, health, logs, usage, options },
      job,
      workload,
    );
    if (!moved) return false;
    this.holds.stopsIssued.delete(job.id);
    await this.runtime.remove(workload);
    return true;
  }

  /** The fast path: settles the job as soon as its workload changes (starts, ends), or at its deadline. */
  private follow(job: Job, workload: Workload): void {
    if (workload.status === 'running') {
      this.usage.follow(job.id, job.attempt, workload, limitsOf(job, this.options.defaults));
    }
    if (this.holds.followed.has(job.id)) return;
    this.holds.followed.add(job.id);
    const untilDeadline = deadlineOf(job, Date.now()) - Date.now();
    const timer =
      job.state === 'running' && untilDeadline > 0
        ? setTimeout(() => void this.settle(job.id), Math.min(untilDeadline, MAX_TIMER_MS))
        : undefined;
    timer?.unref();
    let waited = false;
    const changed = this.runtime.waitForChange(workload).then(async () => {
      // An engine that is stopping kills every container first: such an exit is the engine's,
      // and a fresh connection is refused by then. The reconciler settles it once it is back.
      await this.runtime.ping();
      // This wait is over before the settle, so that the settle can follow the workload again
      // (placed, now running: on to its end), not leave its end to the reconciler's next pass.
      waited = true;
      clearTimeout(timer);
      // Left meanwhile (lost to another instance, said once): decided from a fresh read instead.
      const stillHeld = this.holds.followed.delete(job.id);
      await this.settleFrom(
        job.id,
        undefined,
        false,
        stillHeld ? { job, listed: false, settledSince: true } : undefined,
      );
    });
    void changed
      .catch((error: unknown) => this.engineTrouble(error, job.id))
      .finally(() => {
        if (waited) return; // a wait the settle began since is not this one's to end
        clearTimeout(timer);
        this.holds.followed.delete(job.id);
      });
  }

  /** Asks the engine to stop the workload unless this process already did and is still waiting. */
  private stopOnce(job: Job, workload: Workload, killAt: number): void {
    const now = Date.now();
    if (!this.holds.stopDue(job, now)) return;
    const graceSeconds = Math.max(0, Math.ceil((killAt - now) / 1000));
    void this.runtime
      .stop(workload, graceSeconds)
      .catch((error: unknown) => this.engineTrouble(error, job.id));
  }

  private async engineTrouble(error: unknown, jobId: string): Promise<void> {
    if (error instanceof EngineUnavailableError) {
      this.health.markDown(error.message);
      return;
    }
    // An engine message can quote the job's environment: it is logged scrubbed, or not at all.
    const job = await this.store.getJob(jobId).catch(() => undefined);
    const reason = job ? new JobSecrets(job, this.secrets).scrub(messageOf(error)) : 'withheld';
    this.logger.warn({ jobId, reason }, 'an engine call for a job failed');
  }
}
