import { SLOT_STATES } from '../../contract';
import type { EngineHealth } from './engine-health';
import { EngineUnavailableError, type ContainerRuntime, type JobStore, type Logger } from './ports';
import type { Membership } from './membership';
import { isArrayParent, type Job } from './model';
import type { Runner } from './runner';
import type { KeyedSerial } from './serial';

export const DISPATCH_LOCK = 'dispatch';

/** What a Reconciler works with. */
export interface ReconcilerParts {
  runtime: ContainerRuntime;
  store: JobStore;
  runner: Runner;
  health: EngineHealth;
  /** Shared with the dispatcher: a claimed job is being launched before any pass can see it. */
  locks: KeyedSerial;
  membership: Membership;
  logger: Logger;
  intervalMs: number;
  /** Called after every pass: the dispatcher's backstop for a wake-up that got lost. */
  afterPass: () => void;
  /** Launches what the dispatcher gave this instance and it has not launched (launchGiven). */
  launchGiven: (jobs: readonly Job[]) => void;
}

/**
 * The guarantee behind the runner's fast path, the way Kubernetes controllers and Nomad work:
 * on a short interval, take over the jobs of lost instances (the heartbeat beats beside it),
 * compare every job this instance owns with what the engine reports and settle what differs;
 * remove workloads whose jobs have ended. It only ever reads levels (job
 * state, workload status), so a lost event, a dropped engine connection or a restart of this
 * process changes how soon a job is settled, never how.
 */
export class Reconciler {
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private stopped = true;
  private running: Promise<void> | undefined;

  private readonly runtime: ContainerRuntime;
  private readonly store: JobStore;
  private readonly runner: Runner;
  private readonly health: EngineHealth;
  private readonly locks: KeyedSerial;
  private readonly membership: Membership;
  private readonly logger: Logger;
  private readonly intervalMs: number;
  private readonly afterPass: () => void;
  private readonly launchGiven: (jobs: readonly Job[]) => void;

  constructor(parts: ReconcilerParts) {
    this.runtime = parts.runtime;
    this.store = parts.store;
    this.runner = parts.runner;
    this.health = parts.health;
    this.locks = parts.locks;
    this.membership = parts.membership;
    this.logger = parts.logger;
    this.intervalMs = parts.intervalMs;
    this.afterPass = parts.afterPass;
    this.launchGiven = parts.launchGiven;
  }

  /** Runs one pass (the recovery after a restart), then one every interval; beats meanwhile. */
  async start(): Promise<void> {
    this.stopped = false;
    // Beside the passes, not in them: a pass waits on every job's settle, which a slow engine
    // can hold for its calls' timeouts, longer than the instance timeout under a burst. The
    // beat then came late and a live instance was taken over.
    this.heartbeat = setInterval(() => {
      this.membership.beat().catch((error: unknown) => {
        this.logger.warn({ err: error }, 'could not beat the heartbeat; retrying next interval');
      });
    }, this.intervalMs);
    this.heartbeat.unref();
    await this.pass();
    this.schedule();
  }

  /** Stops the passes and the heartbeat; resolves once a pass under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.pass().finally(() => this.schedule());
    }, this.intervalMs);
  }

  pass(): Promise<void> {
    this.running ??= this.passNow()
      .catch((error: unknown) => {
        if (error instanceof EngineUnavailableError) this.health.markDown(error.message);
        else this.logger.error({ err: error }, 'reconcile pass failed; retrying next interval');
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async passNow(): Promise<void> {
    // Before the engine's ping: an engine that does not answer must not stop the takeovers.
    const takenOver = await this.membership.takeOverLost();
    await this.runtime.ping();
    const { workloads, jobs } = await this.locks.run(DISPATCH_LOCK, async () => {
      const listed = {
        workloads: await this.runtime.list(),
        // An array's parent has no workload: its children are the ones with containers.
        jobs: (await this.store.jobsInStates(SLOT_STATES)).filter((job) => !isArrayParent(job)),
      };
      // The safety net for an 'assigned' signal lost: what the dispatcher gave this instance is
      // launched here (a job just taken over is settled below instead, as before).
      this.launchGiven(listed.jobs.filter((job) => !takenOver.has(job.id)));
      return listed;
    });
    this.health.markUp();
    const byJob = new Map(workloads.map((w) => [w.jobId, w]));
    const active = new Set(jobs.map((j) => j.id));
    await Promise.all([
      ...jobs.map((job) =>
        // Each settled from this listing: one read of the store a pass, not one more a job.
        this.runner.settle(job.id, byJob.get(job.id) ?? null, takenOver.has(job.id), job),
      ),
      // The rest belong to jobs that ended (or never reached a slot): settle removes the former.
      ...workloads.filter((w) => !active.has(w.jobId)).map((w) => this.runner.settle(w.jobId, w)),
    ]);
    this.afterPass();
  }
}
