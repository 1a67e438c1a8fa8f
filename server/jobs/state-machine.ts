import type { JobState } from '../../contract';
import { failpoint } from './failpoints';
import {
  JobLostError,
  isArrayParent,
  type Admission,
  type AttemptRecord,
  type Claim,
  type IdempotencyKey,
  type Job,
  type NewJob,
  type StateChange,
  type TransitionFields,
} from './model';
import { notes } from './notes';
import type { AdmittedJob } from './arrays';
import type { ChildrenMove, JobStore } from './ports';

/**
 * The legal transitions of docs/api.md's state table. This module is the only writer of a job's state:
 * every change goes through `move`, which checks the table and compare-and-sets in the store,
 * so a cancel racing a dispatch can never both win, or through `claim`, the dispatcher's
 * runnable → starting; new jobs through `admit` and `admitArray`, an array's children in bulk
 * through `moveArrayChildren`.
 */
const LEGAL: Record<JobState, readonly JobState[]> = {
  submitted: ['pending', 'runnable', 'cancelled'],
  pending: ['runnable', 'cancelled'],
  runnable: ['starting', 'cancelled'],
  // starting → runnable only in recovery, when the service died before any container existed.
  starting: ['running', 'cancelling', 'runnable', 'error'],
  // running → runnable: another attempt follows an unsuccessful one (retry.ts).
  running: ['completed', 'failed', 'timeout', 'cancelling', 'error', 'runnable'],
  cancelling: ['cancelled', 'error'],
  cancelled: [],
  timeout: [],
  completed: [],
  failed: [],
  error: [],
};

/**
 * An array's parent runs nothing: its state sums up its children's (arrays.ts). It waits like
 * any job, then runs once a child has started, and ends when the last child has; a cancel (or
 * a dependency that can no longer be met) makes it `cancelling` until every child has ended.
 */
const LEGAL_FOR_ARRAY_PARENT: Record<JobState, readonly JobState[]> = {
  submitted: ['pending', 'runnable', 'cancelled'],
  pending: ['runnable', 'cancelling'],
  runnable: ['running', 'cancelling', 'completed', 'failed', 'cancelled'],
  starting: [],
  running: ['completed', 'failed', 'cancelling', 'cancelled'],
  cancelling: ['cancelled', 'completed', 'failed'],
  cancelled: [],
  timeout: [],
  completed: [],
  failed: [],
  error: [],
};

export function canMove(from: JobState, to: JobState, job?: Pick<Job, 'array'>): boolean {
  const legal = job && isArrayParent(job) ? LEGAL_FOR_ARRAY_PARENT : LEGAL;
  return legal[from].includes(to);
}

/**
 * Where a submitted job goes first: pending while its schedule_at is ahead, runnable otherwise.
 * Decided at insert for new jobs, and by the dispatcher's first tick for any that an earlier
 * release left in `submitted`.
 */
export function admissionOf(job: Pick<Job, 'scheduleAt'>, now: number): Admission {
  return job.scheduleAt !== null && job.scheduleAt > now
    ? { to: 'pending', note: notes.scheduled(job.scheduleAt) }
    : { to: 'runnable', note: null };
}

export type TransitionListener = (job: Job, from: JobState) => void;

/** A move decided on a job's current state. */
export interface Move {
  to: JobState;
  note: string | null;
  fields?: TransitionFields;
  endedAttempt?: AttemptRecord;
}

/** What a move records with it, and whether it is this instance's as the job's owner. */
export interface MoveOptions extends Pick<StateChange, 'endedAttempt' | 'keptOutput'> {
  /**
   * Only while this instance owns the job under the epoch it was read with (the runner's moves):
   * see StateChange.fence. Refused for its owner, the move throws JobLostError.
   */
  owned?: boolean;
}

/** Someone kept moving the job between our read and our write. */
export class ContendedError extends Error {}

/** How often a decision is read and tried again when someone else keeps moving the job. */
export const DECIDE_ATTEMPTS = 5;

export class JobStateMachine {
  private readonly listeners = new Set<TransitionListener>();

  /** `owner`: the instance this machine runs in, recorded on every job it claims. */
  constructor(
    private readonly store: JobStore,
    private readonly owner: string,
  ) {}

  onTransition(listener: TransitionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Moves the job from the state it is known to be in. Returns the updated job, or undefined
   * when someone else moved it first (the caller re-reads and decides again).
   */
  async move(
    job: Pick<Job, 'id' | 'state' | 'array' | 'ownerEpoch'>,
    to: JobState,
    note: string | null,
    fields?: TransitionFields,
    recorded: MoveOptions = {},
  ): Promise<Job | undefined> {
    if (!canMove(job.state, to, job)) {
      throw new Error(`illegal transition ${job.state} → ${to} for job ${job.id}`);
    }
    const change: StateChange = {
      id: job.id,
      from: job.state,
      to,
      at: Date.now(),
      note,
      by: this.owner,
    };
    if (fields) change.fields = fields;
    if (recorded.endedAttempt) change.endedAttempt = recorded.endedAttempt;
    if (recorded.keptOutput) change.keptOutput = recorded.keptOutput;
    if (recorded.owned) change.fence = { owner: this.owner, epoch: job.ownerEpoch };
    const moved = await this.store.moveJob(change);
    if (moved) failpoint(`after-move-to-${to}`);
    if (moved) this.notify(moved, job.state);
    return moved;
  }

  /**
   * Reads the job, lets `decide` choose a move for its current state (or none), and
   * compare-and-sets it; when someone moved the job in between, reads and decides again.
   * Returns the moved job, or undefined when there was no job or nothing to do.
   */
  async decideAndMove(
    id: string,
    decide: (job: Job) => Move | undefined,
    options: Pick<MoveOptions, 'owned'> = {},
  ): Promise<Job | undefined> {
    for (let attempt = 0; attempt < DECIDE_ATTEMPTS; attempt += 1) {
      const job = await this.store.getJob(id);
      // Owned moves: once another instance owns the job, there is nothing left to decide here.
      if (options.owned && job && job.owner !== this.owner) throw new JobLostError(id, job.owner);
      const move = job && decide(job);
      if (!job || !move) return undefined;
      const moved = await this.move(job, move.to, move.note, move.fields, {
        endedAttempt: move.endedAttempt,
        ...options,
      });
      if (moved) return moved;
    }
    throw new ContendedError(`job ${id} kept changing state`);
  }

  /**
   * Stores a new job already moved on from `submitted` (by `admissionOf`, unless the caller
   * decided: a job waiting for others is pending with its own note), both transitions
   * recorded in the insert's transaction; listeners hear of it like any other move.
   */
  async admit(
    job: NewJob,
    definitionFingerprint: string,
    admission: Admission = admissionOf(job, job.createdAt),
    idempotency?: IdempotencyKey,
  ) {
    const result = await this.store.insertJob(job, definitionFingerprint, admission, idempotency);
    if (result.inserted) {
      // Admission to runnable (or pending) is recorded in the insert's own transaction.
      if (result.job.state !== 'submitted') failpoint(`after-move-to-${result.job.state}`);
      this.notify(result.job, 'submitted');
    }
    return result;
  }

  /**
   * Stores an array's parent with its first children in one transaction, each moved on from
   * `submitted` as its admission says (JobStore.insertArray); listeners hear of the parent like
   * an admitted job.
   */
  async admitArray(
    parent: NewJob,
    admission: Admission,
    children: readonly AdmittedJob[],
    definitionFingerprint: string,
    idempotency?: IdempotencyKey,
  ) {
    const result = await this.store.insertArray(
      parent,
      admission,
      children,
      definitionFingerprint,
      idempotency,
    );
    if (result.inserted) {
      failpoint('after-array-first-chunk');
      this.notify(result.job, 'submitted');
    }
    return result;
  }

  /**
   * Stores more children of a stored parent, moved on from `submitted` as each admission says;
   * 0 when another instance stored them first (JobStore.insertArrayChildren).
   */
  admitArrayChildren(children: readonly AdmittedJob[]): Promise<number> {
    return this.store.insertArrayChildren(children);
  }

  /**
   * Moves every child of the parent in one of `move.from` at once (JobStore.moveArrayChildren),
   * each move checked against the table first; returns how many moved.
   */
  moveArrayChildren(parentId: string, move: ChildrenMove): Promise<number> {
    for (const from of move.from) {
      if (!canMove(from, move.to)) {
        throw new Error(`illegal transition ${from} → ${move.to} for the children of ${parentId}`);
      }
    }
    return this.store.moveArrayChildren(parentId, move);
  }

  /**
   * Moves the queue's oldest runnable jobs to starting, as many as its slots and the service's
   * allow, counted and moved in one transaction (see JobStore.claimRunnable); returns them.
   */
  async claim(request: Omit<Claim, 'owner' | 'at'>, noteFor: (job: Job) => string): Promise<Job[]> {
    const claimed = await this.store.claimRunnable(
      { ...request, owner: this.owner, at: Date.now() },
      noteFor,
    );
    if (claimed.length > 0) failpoint('after-move-to-starting');
    for (const job of claimed) this.notify(job, 'runnable');
    return claimed;
  }

  /** A job stored by another write (a schedule's firing): heard of like an admitted one. */
  announce(job: Job, from: JobState): void {
    this.notify(job, from);
  }

  private notify(job: Job, from: JobState): void {
    for (const listener of this.listeners) listener(job, from);
  }
}
