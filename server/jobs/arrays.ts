import { v7 as timeOrderedUuid } from 'uuid';
import {
  SLOT_STATES,
  UNSUCCESSFUL_STATES,
  WAITING_STATES,
  childCounts,
  isFinalState,
  type JobState,
} from '../../contract';
import { cancelMove } from './cancellation';
import {
  childRole,
  isArrayParent,
  parentRole,
  type Admission,
  type ArrayParentRole,
  type Job,
  type NewJob,
} from './model';
import { notes } from './notes';
import type { ArrayCounts, JobStore, Logger } from './ports';
import type { Runner } from './runner';
import type { JobStateMachine } from './state-machine';

/** Children's moves come in bursts: their parent is summed up at most this often. */
const SETTLE_AFTER_MS = 200;
/** After this long, children missing from a parent were left out by an interrupted admission. */
const ADMISSION_GRACE_MS = 60_000;
/** Children of a parent stored per transaction: a few milliseconds of the store's time each. */
export const ARRAY_CHUNK = 250;

/** A job to store with where it goes from `submitted`. */
export interface AdmittedJob {
  job: NewJob;
  admission: Admission;
}

/**
 * What the children of an array are made with: each child's id, taken ahead so that a child can
 * name the one before it (`sequential`), and the ids of the children of the array it follows
 * (`n_to_n`), by index.
 */
export interface ChildIds {
  own: readonly string[];
  followed: readonly string[] | null;
}

/**
 * Ids for the children of these indexes, by index: those `stored` already kept, new ones for
 * the rest.
 */
export function childIds(
  indexes: readonly number[],
  stored: ReadonlyMap<number, string>,
  followed: readonly string[] | null,
): ChildIds {
  const own: string[] = [];
  for (const index of indexes) own[index] = stored.get(index) ?? timeOrderedUuid();
  return { own, followed };
}

/**
 * The children of a parent about to be stored: its plan (shared, not copied: the store keeps
 * the parent's command and environment alone), their own ids, names `<parent name>:<index>`
 * (a colon no submitted name may hold, so none can clash) and no schedule: they wait for their
 * parent to be released. Each waits for what the parent's links say (afterok), and is pending
 * until then; the rest start with the parent.
 */
export function arrayChildren(
  parent: NewJob,
  parentAdmission: Admission,
  indexes: readonly number[],
  ids: ChildIds,
): AdmittedJob[] {
  const links = parentRole(parent)?.links;
  return indexes.map((index) => {
    const followed = ids.followed?.[index];
    const before = links?.sequential && index > 0 ? ids.own[index - 1] : undefined;
    const dependsOn = [followed, before].flatMap((jobId) =>
      jobId === undefined ? [] : [{ jobId, type: 'afterok' as const }],
    );
    const job: NewJob = {
      ...parent,
      id: ids.own[index]!,
      name: `${parent.name}:${index}`,
      scheduleAt: null,
      dependsOn,
      array: { parentId: parent.id, index },
    };
    const admission: Admission =
      parentAdmission.to === 'runnable' && dependsOn.length === 0
        ? parentAdmission
        : {
            to: 'pending',
            note:
              dependsOn.length === 0
                ? notes.waitingWithArray(parent.id)
                : notes.waitingForArrayLinks(parent.id),
          };
    return { job, admission };
  });
}

/** The children of these indexes, `per` at a time, each chunk made only when asked for. */
export function* childrenInChunks(
  parent: NewJob,
  parentAdmission: Admission,
  indexes: readonly number[],
  ids: ChildIds,
  per: number,
) {
  for (let start = 0; start < indexes.length; start += per) {
    yield arrayChildren(parent, parentAdmission, indexes.slice(start, start + per), ids);
  }
}

export const indexesUpTo = (size: number) => Array.from({ length: size }, (_, i) => i);

/** The indexes the array has a child for, ascending. */
export const arrayIndexes = (role: ArrayParentRole) => role.indexes ?? indexesUpTo(role.size);

/** How many children the array has. */
export const childCount = (role: ArrayParentRole) => role.indexes?.length ?? role.size;

/**
 * Where a parent's state goes given its children's counts (undefined: while it waits for its
 * schedule or dependencies, nothing to sum up): running while any child has started and some
 * have not ended; once all ended, completed when all completed, failed when any failed, timed
 * out or errored (after its retries), cancelled otherwise or when the parent was cancelled.
 */
export function summarizeArray(
  parent: Job,
  counts: ArrayCounts,
): { to: JobState; note: string } | undefined {
  const role = parentRole(parent);
  if (!role) return undefined;
  if (parent.state === 'submitted' || parent.state === 'pending') return undefined;
  const size = childCount(role);
  const count = (states: readonly JobState[]) =>
    states.reduce((sum, state) => sum + (counts.get(state) ?? 0), 0);
  const completed = count(['completed']);
  const failed = count(UNSUCCESSFUL_STATES);
  const cancelled = count(['cancelled']);
  const running = count(SLOT_STATES);
  const note = notes.arrayProgress(size, childCounts(Object.fromEntries(counts)));
  if (completed + failed + cancelled >= size) {
    const to =
      completed === size
        ? 'completed'
        : parent.cancelRequestedAt !== null
          ? 'cancelled'
          : failed > 0
            ? 'failed'
            : 'cancelled';
    return { to, note };
  }
  if (parent.state === 'cancelling') return { to: 'cancelling', note };
  if (running + completed + failed + cancelled > 0) return { to: 'running', note };
  return { to: parent.state, note };
}

/** The ids of the children of the array this one follows (n_to_n), by index; null: none. */
export async function followedChildIds(
  store: Pick<JobStore, 'arrayChildIds'>,
  parent: Pick<NewJob, 'array'>,
): Promise<string[] | null> {
  const links = parentRole(parent)?.links;
  if (links?.nToN === undefined) return null;
  const ids = await store.arrayChildIds(links.nToN);
  return indexesUpTo(ids.size).map((index) => ids.get(index)!);
}

/** What an ArraySettler works with. */
export interface ArraySettlerParts {
  store: JobStore;
  machine: JobStateMachine;
  runner: Runner;
  /** Children were released to runnable: the dispatcher claims them. */
  dispatch: () => void;
  logger: Logger;
}

/**
 * Keeps each unfinished parent in step with its children: releases them when the parent is
 * released (its schedule came, its dependencies were met), cancels them when it is cancelled,
 * and moves the parent (and its note's counts) as they move. Driven by the children's moves
 * seen here (summed up once per burst) and by every reconcile pass over all unfinished parents,
 * so a move made by another instance or one lost in a crash is caught up.
 */
export class ArraySettler {
  private readonly touched = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private startedAt = Infinity;

  constructor(private readonly parts: ArraySettlerParts) {
    parts.machine.onTransition((job) => {
      if (job.array === null) return;
      this.touch(childRole(job)?.parentId ?? job.id);
    });
  }

  start(): void {
    this.stopped = false;
    this.startedAt = Date.now();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Every unfinished parent, as the reconcile pass asks. */
  async settleAll(): Promise<void> {
    try {
      for (const parent of await this.parts.store.unfinishedArrayParents()) {
        await this.settleGuarded(parent.id);
      }
    } catch (error) {
      this.parts.logger.warn({ err: error }, 'could not read the unfinished array jobs');
    }
  }

  private touch(parentId: string): void {
    this.touched.add(parentId);
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const ids = [...this.touched];
      this.touched.clear();
      void (async () => {
        for (const id of ids) await this.settleGuarded(id);
      })();
    }, SETTLE_AFTER_MS);
  }

  private async settleGuarded(parentId: string): Promise<void> {
    try {
      await this.settle(parentId);
    } catch (error) {
      // The next reconcile pass settles it again.
      this.parts.logger.warn({ err: error, jobId: parentId }, 'could not settle an array job');
    }
  }

  private async settle(parentId: string): Promise<void> {
    const { store, machine } = this.parts;
    const parent = await store.getJob(parentId);
    if (!parent || !isArrayParent(parent) || isFinalState(parent.state)) return;
    const now = Date.now();
    let counts = await store.arrayCounts(parent.id);
    const has = (states: readonly JobState[]) => states.some((state) => counts.has(state));
    // Counted first: most passes find nothing to move, and write nothing but the note.
    if (parent.state === 'cancelling' && has([...WAITING_STATES, 'starting', 'running'])) {
      await machine.moveArrayChildren(parent.id, {
        from: WAITING_STATES,
        to: 'cancelled',
        at: now,
        note: notes.cancelledWithArray(parent.id),
      });
      await this.cancelActiveChildren(parent, now);
      counts = await store.arrayCounts(parent.id);
    } else if ((parent.state === 'runnable' || parent.state === 'running') && has(['pending'])) {
      const released = await machine.moveArrayChildren(parent.id, {
        from: ['pending'],
        withoutDependencies: true,
        to: 'runnable',
        at: now,
        note: null,
      });
      if (released > 0) this.parts.dispatch();
    }
    await this.storeMissingChildren(parent, counts, now);
    const summary = summarizeArray(parent, counts);
    if (!summary) return;
    if (summary.to !== parent.state) {
      const fields = {
        ...(summary.to === 'running' && parent.startedAt === null && { startedAt: now }),
        ...(isFinalState(summary.to) && { finishedAt: now }),
      };
      await machine.move(parent, summary.to, summary.note, fields);
    } else if (summary.note !== parent.systemNote) {
      await store.setNote({ id: parent.id, state: parent.state, note: summary.note });
    }
  }

  /**
   * Children an admission did not store (the service stopped halfway): stored now, as the rest
   * were. An admission still going on (submitted after this instance started, and lately) is
   * left to finish; storing alongside one would only waste writes, as an index is taken once.
   */
  private async storeMissingChildren(parent: Job, counts: ArrayCounts, now: number) {
    const role = parentRole(parent);
    const size = role ? childCount(role) : 0;
    const stored = [...counts.values()].reduce((sum, n) => sum + n, 0);
    if (!role || stored >= size) return;
    if (parent.createdAt >= this.startedAt && now - parent.createdAt < ADMISSION_GRACE_MS) return;
    const { store, machine } = this.parts;
    const present = await store.arrayChildIds(parent.id);
    const indexes = arrayIndexes(role);
    const missing = indexes.filter((index) => !present.has(index));
    const followed = await followedChildIds(store, parent);
    const ids = childIds(indexes, present, followed);
    const admission: Admission = {
      to: parent.state === 'pending' ? 'pending' : 'runnable',
      note: null,
    };
    for (const chunk of childrenInChunks(parent, admission, missing, ids, ARRAY_CHUNK)) {
      await machine.admitArrayChildren(chunk);
    }
    this.parts.logger.warn(
      { jobId: parent.id, missing: missing.length, size },
      'stored the children an interrupted admission left out',
    );
    this.parts.dispatch();
  }

  /** Starting and running children are stopped like any job cancelled (few: they hold slots). */
  private async cancelActiveChildren(parent: Job, now: number): Promise<void> {
    const { store, machine, runner } = this.parts;
    for (let after = -1; ;) {
      const page = await store.arrayChildren({
        parentId: parent.id,
        states: ['starting', 'running'],
        afterIndex: after,
        limit: 500,
      });
      for (const child of page.items) {
        const moved = await machine.decideAndMove(child.id, (job) =>
          isFinalState(job.state) ? undefined : cancelMove(job, now, parent.cancelRequestedBy),
        );
        if (moved?.state === 'cancelling') runner.nudge(child.id);
      }
      if (!page.more) return;
      const last = page.items.at(-1)?.array;
      after = last && 'index' in last ? last.index : Infinity;
    }
  }
}
