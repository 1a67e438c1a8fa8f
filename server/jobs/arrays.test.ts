import { describe, expect, it } from 'vitest';
import { FINAL_STATES, JOB_STATES, childCounts, type JobState } from '../../contract';
import { newJob } from '../../test/store/new-job';
import { arrayChildren, childIds, indexesUpTo, summarizeArray } from './arrays';
import type { Job } from './model';
import { canMove } from './state-machine';

const parentIn = (state: JobState, cancelRequestedAt: number | null = null): Job => ({
  ...newJob({ array: { size: 10 } }),
  seq: 1,
  state,
  systemNote: null,
  updatedAt: null,
  containerId: null,
  exitCode: null,
  startedAt: null,
  finishedAt: null,
  cancelRequestedAt,
  cancelRequestedBy: null,
  owner: null,
  ownerEpoch: 0,
  node: null,
  host: null,
  placementNote: null,
  attempt: 1,
  notBefore: null,
  preemption: null,
  preemptions: 0,
});
const counts = (entries: Partial<Record<JobState, number>>) =>
  new Map(Object.entries(entries) as [JobState, number][]);

describe('summing up an array', () => {
  it('leaves a parent that waits for its schedule or dependencies as it is', () => {
    expect(summarizeArray(parentIn('pending'), counts({ pending: 10 }))).toBeUndefined();
  });

  it('runs once any child has started, with every count in the note', () => {
    expect(summarizeArray(parentIn('runnable'), counts({ runnable: 10 }))).toEqual({
      to: 'runnable',
      note: '0 of 10 completed, 10 runnable',
    });
    expect(
      summarizeArray(
        parentIn('runnable'),
        counts({ completed: 4, failed: 1, starting: 1, running: 2, runnable: 2 }),
      ),
    ).toEqual({
      to: 'running',
      note: '4 of 10 completed, 1 failed, 2 running, 1 starting, 2 runnable',
    });
  });

  it('ends completed when all completed, failed when any failed, cancelled when cancelled', () => {
    expect(summarizeArray(parentIn('running'), counts({ completed: 10 }))?.to).toBe('completed');
    expect(summarizeArray(parentIn('running'), counts({ completed: 9, timeout: 1 }))).toEqual({
      to: 'failed',
      note: '9 of 10 completed, 1 timeout',
    });
    expect(summarizeArray(parentIn('running'), counts({ completed: 8, cancelled: 2 }))?.to).toBe(
      'cancelled',
    );
    // A cancelled parent ends cancelled even when a child failed before the cancel.
    expect(summarizeArray(parentIn('cancelling', 1), counts({ failed: 1, cancelled: 9 }))?.to).toBe(
      'cancelled',
    );
    expect(summarizeArray(parentIn('cancelling', 1), counts({ running: 2, cancelled: 8 }))).toEqual(
      { to: 'cancelling', note: '0 of 10 completed, 8 cancelled, 2 running' },
    );
  });

  it("counts in its note state by state, as the console's chips do, never one state for another", () => {
    const byState = { completed: 3, failed: 5, error: 2 };
    const summary = summarizeArray(parentIn('running'), counts(byState));
    expect(summary).toEqual({ to: 'failed', note: '3 of 10 completed, 5 failed, 2 error' });
    const chips = childCounts(byState).map(([state, n]) => `${n} ${state}`);
    expect(summary?.note).toBe(`3 of 10 completed, ${chips.slice(1).join(', ')}`);
  });

  it('writes large counts with separators', () => {
    const big = { ...parentIn('running'), array: { size: 10_000 } };
    expect(
      summarizeArray(big, counts({ completed: 1234, running: 40, runnable: 8726 }))?.note,
    ).toBe('1,234 of 10,000 completed, 40 running, 8,726 runnable');
  });

  it('only ever moves a parent along its own table', () => {
    const parent = parentIn('runnable');
    for (const summary of [
      summarizeArray(parent, counts({ running: 1, runnable: 9 })),
      summarizeArray(parent, counts({ completed: 10 })),
      summarizeArray(parent, counts({ failed: 10 })),
    ]) {
      expect(canMove(parent.state, summary!.to, parent)).toBe(true);
    }
    // A parent never holds a slot: it never starts, and an ordinary job never skips starting.
    expect(canMove('runnable', 'starting', parent)).toBe(false);
    expect(canMove('runnable', 'running')).toBe(false);
    for (const state of FINAL_STATES) {
      for (const to of JOB_STATES) expect(canMove(state, to, parent)).toBe(false);
    }
  });
});

describe('an array’s children', () => {
  const runnable = { to: 'runnable', note: null } as const;

  it('share the parent’s plan, take their own ids and names, and wait with it', () => {
    const parent = newJob({
      name: 'fan',
      scheduleAt: 5,
      dependsOn: [{ jobId: 'x', type: 'afterok' }],
      array: { size: 3 },
    });
    const ids = childIds(indexesUpTo(3), new Map([[1, 'kept']]), null);
    const children = arrayChildren(parent, runnable, [0, 1, 2], ids);
    expect(children.map(({ job }) => [job.name, job.array, job.scheduleAt, job.dependsOn])).toEqual(
      [
        ['fan:0', { parentId: parent.id, index: 0 }, null, []],
        ['fan:1', { parentId: parent.id, index: 1 }, null, []],
        ['fan:2', { parentId: parent.id, index: 2 }, null, []],
      ],
    );
    expect(children[1]!.job.id).toBe('kept');
    expect(new Set(children.map(({ job }) => job.id)).size).toBe(3);
    expect(children[0]!.job.env).toBe(parent.env);
    expect(children[0]!.admission).toEqual(runnable);
    const pending = arrayChildren(parent, { to: 'pending', note: 'scheduled' }, [0], ids);
    expect(pending[0]!.admission).toEqual({
      to: 'pending',
      note: `waiting until its array (job ${parent.id}) may start`,
    });
  });

  it('follow the child before them (sequential) and the same child of another array (n_to_n)', () => {
    const parent = newJob({ array: { size: 3, links: { nToN: 'other', sequential: true } } });
    const ids = childIds(indexesUpTo(3), new Map(), ['o0', 'o1', 'o2']);
    const children = arrayChildren(parent, runnable, [0, 1, 2], ids);
    expect(children.map(({ job }) => job.dependsOn.map((d) => d.jobId))).toEqual([
      ['o0'],
      ['o1', ids.own[0]],
      ['o2', ids.own[1]],
    ]);
    for (const { job, admission } of children) {
      expect(job.dependsOn.every((d) => d.type === 'afterok')).toBe(true);
      expect(admission.to).toBe('pending');
    }
  });
});
