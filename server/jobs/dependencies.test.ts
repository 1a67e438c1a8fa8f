import { describe, expect, it } from 'vitest';
import { DEPENDENCY_TYPES, JOB_STATES, dependencyStatus, isFinalState } from '../../contract';
import { judgeDependencies } from './dependencies';
import type { JobDependency, JobSummary } from './model';

const summary = (id: string, state: JobSummary['state'], project = 'p'): JobSummary => ({
  id,
  project,
  name: `job-${id}`,
  state,
});
const judge = (dependsOn: JobDependency[], ...others: JobSummary[]) =>
  judgeDependencies({ project: 'p', dependsOn }, new Map(others.map((o) => [o.id, o])));

describe('dependency status', () => {
  it('waits while the job is unfinished and then holds for good, met or not, by type', () => {
    for (const type of DEPENDENCY_TYPES) {
      for (const state of JOB_STATES) {
        const status = dependencyStatus(type, state);
        if (!isFinalState(state)) expect(status).toBe('waiting');
        else if (type === 'afterany') expect(status).toBe('met');
        else expect(status === 'met').toBe((state === 'completed') === (type === 'afterok'));
      }
    }
  });
});

describe('judging a job that waits for others', () => {
  it('is met once every dependency is', () => {
    expect(
      judge(
        [
          { jobId: 'a', type: 'afterok' },
          { jobId: 'b', type: 'afternotok' },
        ],
        summary('a', 'completed'),
        summary('b', 'timeout'),
      ),
    ).toEqual({ kind: 'met' });
  });

  it('names what it still waits for, how many of how many, and their states', () => {
    expect(judge([{ jobId: 'a', type: 'afterok' }], summary('a', 'running'))).toEqual({
      kind: 'waiting',
      note: 'waiting for job job-a (a) to complete (it is running)',
    });
    const many = ['a', 'b', 'c', 'd', 'e'].map((id) => summary(id, 'runnable'));
    const verdict = judge(
      [
        { jobId: 'z', type: 'afterany' },
        ...many.map((m) => ({ jobId: m.id, type: 'afterany' as const })),
      ],
      summary('z', 'completed'),
      ...many,
    );
    expect(verdict).toEqual({
      kind: 'waiting',
      note: 'waiting for 5 of 6 jobs: job-a (a) to end (it is runnable); job-b (b) to end (it is runnable); job-c (c) to end (it is runnable); 2 more',
    });
  });

  it('can no longer be met when one ended otherwise, is gone, or is of another project', () => {
    expect(judge([{ jobId: 'a', type: 'afternotok' }], summary('a', 'completed'))).toMatchObject({
      kind: 'unmeetable',
      index: 0,
      note: 'cancelled: it was to start after job job-a (a) to end unsuccessfully (afternotok), which ended completed',
    });
    const gone = {
      kind: 'unmeetable',
      note: 'cancelled: job a, which it was to start after, is no longer stored',
    };
    expect(judge([{ jobId: 'a', type: 'afterany' }])).toMatchObject(gone);
    expect(judge([{ jobId: 'a', type: 'afterany' }], summary('a', 'completed', 'q'))).toMatchObject(
      gone,
    );
  });

  it('judges a job no longer stored by the end recorded on the dependency, met or not', () => {
    const dependsOn: JobDependency[] = [
      { jobId: 'a', type: 'afterok' },
      { jobId: 'b', type: 'afterok' },
    ];
    const judgeWith = (ends: [string, JobSummary['state']][], ...others: JobSummary[]) =>
      judgeDependencies(
        { project: 'p', dependsOn },
        new Map(others.map((o) => [o.id, o])),
        new Map(ends),
      );
    expect(judgeWith([['a', 'completed']], summary('b', 'running'))).toEqual({
      kind: 'waiting',
      note: 'waiting for 1 of 2 jobs: job-b (b) to complete (it is running)',
    });
    expect(judgeWith([['a', 'completed']], summary('b', 'completed'))).toEqual({ kind: 'met' });
    // Its name went with it: the note names it by id.
    expect(judgeWith([['a', 'failed']], summary('b', 'running'))).toMatchObject({
      kind: 'unmeetable',
      index: 0,
      note: 'cancelled: it was to start after job a to complete (afterok), which ended failed',
    });
  });
});
