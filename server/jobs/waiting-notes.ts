import type { Catalog } from './catalog';
import type { EngineHealth } from './engine-health';
import type { Job } from './model';
import { notes } from './notes';
import type { JobStore } from './ports';
import type { QueueControls } from './queue-controls';
import type { ShareLedger } from './share-ledger';

const totalOf = (countsByQueue: Map<string, number>) =>
  [...countsByQueue.values()].reduce((sum, n) => sum + n, 0);

/** A waiting job's place is counted this far: past it, the note says "past the first 1,000". */
const PLACES_COUNTED = 1000;

/** Why a runnable job waits, in words, as the dispatcher would decide for it now. */
export class WaitingNotes {
  private readonly store: JobStore;
  private readonly catalog: Catalog;
  private readonly controls: QueueControls;
  private readonly health: EngineHealth;
  private readonly shares: ShareLedger;

  constructor(parts: {
    store: JobStore;
    catalog: Catalog;
    controls: QueueControls;
    health: EngineHealth;
    shares: ShareLedger;
  }) {
    ({
      store: this.store,
      catalog: this.catalog,
      controls: this.controls,
      health: this.health,
      shares: this.shares,
    } = parts);
  }

  private liveQueue(ref: string) {
    const settings = this.catalog.queue(ref);
    return settings && this.controls.live(settings);
  }

  /**
   * What a runnable job is waiting for, counted now. With `counts` (one read for many jobs: a
   * list, events), the slots alone; without (one job), its place in the queue too. Waiting for
   * room while its project holds its fair share, it says so; held by a quota, it says that alone.
   */
  async waitingNote(job: Job, counts?: Map<string, number>): Promise<string> {
    const held = this.heldNote(job);
    if (held !== undefined) return held;
    const quota = await this.shares.quotaClauseFor(job);
    if (quota !== undefined) return notes.waitingForQuota(quota);
    const [note, clause] = await Promise.all([
      job.placementNote ?? this.slotNote(job, counts),
      this.shares.clauseFor(job.project),
    ]);
    return clause ? `${note}; ${clause}` : note;
  }

  private async slotNote(job: Job, counts?: Map<string, number>): Promise<string> {
    const queue = this.liveQueue(job.queue);
    const [active, place] = await Promise.all([
      counts ?? this.store.activeCountsByQueue(),
      counts
        ? undefined
        : this.store.placeInQueue({
            queue: job.queue,
            seq: job.seq,
            now: Date.now(),
            atMost: PLACES_COUNTED,
          }),
    ]);
    const inQueue = active.get(job.queue) ?? 0;
    const total = totalOf(active);
    const slots =
      queue && inQueue < queue.maxRunning && total >= this.catalog.maxRunning
        ? notes.serviceSlotsBusy(total, this.catalog.maxRunning)
        : notes.queueSlotsBusy(inQueue, queue?.maxRunning ?? 0, job.queue);
    // 0: claimed between the two reads; its next read says so.
    const placed =
      place && place.place > 0
        ? { ...place, queue: job.queue, counted: PLACES_COUNTED }
        : undefined;
    return notes.waitingForSlot(slots, placed);
  }

  /**
   * A runnable job that waits for a slot alone: its place among its queue's waiting jobs (1:
   * next; undefined past the first PLACES_COUNTED) and the slots it may start in.
   */
  async slotWait(job: Job): Promise<{ place: number; slots: number } | undefined> {
    const queue = this.liveQueue(job.queue);
    if (job.state !== 'runnable' || !queue) return undefined;
    if (this.heldNote(job) !== undefined || job.placementNote !== null) return undefined;
    // Held by a quota, it starts when others' jobs end, not by its place.
    if ((await this.shares.quotaClauseFor(job)) !== undefined) return undefined;
    const { place } = await this.store.placeInQueue({
      queue: job.queue,
      seq: job.seq,
      now: Date.now(),
      atMost: PLACES_COUNTED,
    });
    const slots = Math.min(queue.maxRunning, this.catalog.maxRunning);
    return place > 0 && place <= PLACES_COUNTED ? { place, slots } : undefined;
  }

  /** What holds a runnable job other than slots and room, worded; undefined when nothing does. */
  private heldNote(job: Job): string | undefined {
    // Waiting out a backoff: its note says which attempt starts when, and why.
    if (job.notBefore !== null && job.notBefore > Date.now() && job.systemNote !== null) {
      return job.systemNote;
    }
    if (this.health.unreachableSince !== null) {
      return notes.waitingForEngine(this.health.unreachableSince);
    }
    const queue = this.liveQueue(job.queue);
    if (queue?.paused) return notes.queuePaused(job.queue, queue.pausedReason);
    return undefined;
  }
}
