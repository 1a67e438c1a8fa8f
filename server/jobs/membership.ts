import type { InstanceRecord, InstanceRegistry, JobStore, Logger } from './ports';

/** Who this process is among the instances sharing the store. */
export interface InstanceIdentity {
  id: string;
  /** The machine, and the process namespace on it, where `pid` means something. */
  host: string;
  pid: number;
}

// Instances not heard of for a day are forgotten; their jobs were taken over long before.
const FORGET_AFTER_MS = 24 * 3600 * 1000;

/**
 * This instance's heartbeat, and the takeover of jobs whose instance is lost: it stopped, it has
 * not beaten for `timeoutMs`, or it was a process on this very machine that no longer exists
 * (the embedded default restarted after a kill: no need to wait out the timeout). The heartbeat
 * says the process is alive, nothing more: it beats on a timer of its own (Reconciler), so a pass
 * slowed by a slow engine never makes a live instance look lost.
 *
 * It also tells this instance when it may itself have been taken for lost: its last beat is
 * older than half the timeout (a frozen process, a paused VM, a starved event loop). Its jobs are
 * fenced in the store either way (every owned move carries the owner's epoch); meanwhile the
 * runner checks with the store before it launches anything (Runner: ownershipInDoubt).
 */
export class Membership {
  /** When the last beat this instance recorded was taken (its own clock); undefined until joined. */
  private lastBeatAt: number | undefined;
  /** The instances as the last pass read them. */
  private known: InstanceRecord[] = [];

  constructor(
    private readonly registry: InstanceRegistry,
    private readonly store: JobStore,
    readonly self: InstanceIdentity,
    private readonly timeoutMs: number,
    private readonly isLocalProcessAlive: (pid: number) => boolean,
    private readonly logger: Logger,
  ) {}

  async join(now = Date.now()): Promise<void> {
    await this.registry.register({
      ...this.self,
      startedAt: now,
      heartbeatAt: now,
      stoppedAt: null,
    });
    this.lastBeatAt = now;
    // Jobs claimed before owners were recorded belong to nobody alive: this instance adopts them.
    await this.store.takeOver({ from: null, to: this.self.id });
  }

  /** Says this instance is alive. */
  async beat(now = Date.now()): Promise<void> {
    const lateBy = this.lastBeatAt === undefined ? 0 : now - this.lastBeatAt;
    if (lateBy > this.timeoutMs) {
      this.logger.warn(
        { lateByMs: lateBy, instanceTimeoutMs: this.timeoutMs },
        'this instance was silent past the instance timeout: others may have taken over its jobs, which it now leaves to them',
      );
    }
    await this.registry.heartbeat(this.self.id, now);
    this.lastBeatAt = Math.max(this.lastBeatAt ?? now, now);
  }

  /**
   * Whether another instance may have taken this one for lost: its last recorded beat is older
   * than half the timeout (half: the clocks of the instances may differ a little).
   */
  ownershipInDoubt(now = Date.now()): boolean {
    return this.lastBeatAt === undefined || now - this.lastBeatAt > this.timeoutMs / 2;
  }

  /** Takes over the jobs of every lost instance; returns the ids taken over. */
  async takeOverLost(now = Date.now()): Promise<Set<string>> {
    const taken = new Set<string>();
    this.known = await this.registry.list();
    for (const instance of this.known) {
      if (!this.isLost(instance, now)) continue;
      const ids = await this.store.takeOver({ from: instance.id, to: this.self.id });
      if (ids.length > 0) {
        this.logger.warn(
          { lost: instance.id, host: instance.host, jobs: ids.length },
          'took over the jobs of a lost instance',
        );
      }
      for (const id of ids) taken.add(id);
    }
    await this.registry.forget(now - FORGET_AFTER_MS);
    return taken;
  }

  /**
   * The instances the dispatcher may give jobs to, in a stable order: this one, and those that
   * beat within half the timeout as the last pass read them (a silent one gets nothing more; what
   * it was given and never ran, a survivor takes over).
   */
  liveMembers(now = Date.now()): string[] {
    const live = this.known.filter(
      (instance) =>
        instance.id !== this.self.id &&
        !this.isLost(instance, now) &&
        now - instance.heartbeatAt <= this.timeoutMs / 2,
    );
    return [this.self.id, ...live.map((instance) => instance.id)].sort();
  }

  async leave(now = Date.now()): Promise<void> {
    await this.registry.leave(this.self.id, now);
  }

  private isLost(instance: InstanceRecord, now: number): boolean {
    if (instance.id === this.self.id) return false;
    return (
      instance.stoppedAt !== null ||
      now - instance.heartbeatAt > this.timeoutMs ||
      (instance.host === this.self.host && !this.isLocalProcessAlive(instance.pid))
    );
  }
}
