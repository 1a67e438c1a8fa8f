import { isArrayParent, type Job } from './model';
import type { JobStore, Logger, Signals } from './ports';
import { DISPATCH_LOCK } from './reconciler';
import type { Runner } from './runner';
import { coalesced, type KeyedSerial } from './serial';

/** What a Handout works with. */
export interface HandoutParts {
  store: JobStore;
  runner: Runner;
  /** Shared with the dispatcher and the reconciler (DISPATCH_LOCK). */
  locks: KeyedSerial;
  signals: Signals;
  logger: Logger;
  instanceId: string;
}

/** Instance ids a signal names at most: PostgreSQL's NOTIFY carries up to 8,000 bytes. */
const OWNERS_A_SIGNAL = 64;

/**
 * The jobs the dispatcher claims, handed out: its own launched here, each other owner told by an
 * 'assigned' signal. On every instance, such a signal launches the jobs given to it, read from the
 * store once however many signals arrive meanwhile.
 */
export class Handout {
  private stopped = false;
  private readonly launches = coalesced(
    () => this.launchGivenNow(),
    () => !this.stopped,
  );

  constructor(private readonly parts: HandoutParts) {
    parts.signals.subscribe((signal) => {
      if (signal.kind !== 'assigned' || !signal.to.includes(parts.instanceId)) return;
      this.launches().catch((error: unknown) => {
        parts.logger.warn(
          { err: error },
          'could not read the jobs given to this instance; the next pass launches them',
        );
      });
    });
  }

  stop(): void {
    this.stopped = true;
  }

  /** Launches this instance's jobs here; tells each other owner it has jobs to launch. */
  handOut(claimed: readonly Job[]): void {
    const others = new Set<string>();
    for (const job of claimed) {
      if (job.owner === this.parts.instanceId) this.parts.runner.launch(job);
      else if (job.owner !== null) others.add(job.owner);
    }
    // One signal for all of a claim's other owners: every instance hears every signal, and one
    // signal an owner was 7 NOTIFYs a claim at eight instances, each waking all eight.
    const owners = [...others];
    for (let from = 0; from < owners.length; from += OWNERS_A_SIGNAL) {
      const to = owners.slice(from, from + OWNERS_A_SIGNAL);
      this.parts.signals.publish({ kind: 'assigned', to }).catch((error: unknown) => {
        this.parts.logger.warn(
          { err: error, to },
          'could not signal instances their jobs; their passes will launch them',
        );
      });
    }
  }

  private async launchGivenNow(): Promise<void> {
    const { locks, store, runner, instanceId } = this.parts;
    await locks.run(DISPATCH_LOCK, async () => {
      launchGiven(runner, instanceId, await store.jobsInStates(['starting']));
    });
  }
}

/**
 * Of `jobs`, those given to `owner` (in `starting`, its own) that this process neither launches
 * nor follows yet: launched now. Called under the dispatch lock, as a reconcile pass lists jobs,
 * so that no pass settles such a job before its launch is under way.
 */
export function launchGiven(runner: Runner, owner: string, jobs: readonly Job[]): void {
  for (const job of jobs) {
    const given = job.state === 'starting' && job.owner === owner && !isArrayParent(job);
    if (given && !runner.actsOn(job.id)) runner.launch(job);
  }
}
