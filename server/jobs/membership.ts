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
 */
export class Membership {
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
    // Jobs claimed before owners were recorded belong to nobody alive: this instance adopts them.
    await this.store.takeOver({ from: null, to: this.self.id });
  }

  /** Says this instance is alive. */
  async beat(now = Date.now()): Promise<void> {
    await this.registry.heartbeat(this.self.id, now);
  }

  /** Takes over the jobs of every lost instance; returns the ids taken over. */
  async takeOverLost(now = Date.now()): Promise<Set<string>> {
    const taken = new Set<string>();
    for (const instance of await this.registry.list()) {
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
