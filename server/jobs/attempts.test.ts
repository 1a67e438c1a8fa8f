import { describe, expect, it } from 'vitest';
import { newJob } from '../../test/store/new-job';
import { attemptEnd } from './attempts';
import type { Job } from './model';
import { notes } from './notes';
import type { Outcome } from './outcome';

const MiB = 2 ** 20;
const T = Date.parse('2026-12-07T12:00:00.000Z');

/** A running job on attempt 1 whose strategy raises its memory after an out-of-memory kill. */
const running = (resources: Job['resources']): Job => ({
  ...newJob({
    retry: { attempts: 3, out_of_memory: { factor: 2, max_memory_bytes: 64 * MiB } },
    memoryBytes: 16 * MiB,
    resources,
  }),
  seq: 1,
  state: 'running',
  systemNote: null,
  updatedAt: null,
  containerId: 'c1',
  exitCode: null,
  startedAt: T - 5000,
  finishedAt: null,
  cancelRequestedAt: null,
  cancelRequestedBy: null,
  owner: 'i1',
  ownerEpoch: 1,
  node: null,
  host: null,
  placementNote: null,
  attempt: 1,
  notBefore: null,
  preemption: null,
  preemptions: 0,
});

const killed = (limit: number): Outcome => ({
  to: 'failed',
  note: notes.outOfMemory(limit, limit - MiB),
  fields: { exitCode: 137, finishedAt: T },
});

const oomWorkload = {
  id: 'c1',
  jobId: 'j',
  status: 'exited' as const,
  exitCode: 137,
  startedAt: T - 5000,
  finishedAt: T,
  node: null,
  message: null,
  cause: 'oom_killed' as const,
  attempt: 1,
};

describe('an attempt killed out of memory, under retry.out_of_memory', () => {
  it('moves the job back to runnable with its memory, and its request where it asked for less, raised', () => {
    const job = running({ cpus: 0.5, memoryBytes: 16 * MiB, gpus: 0 });
    const end = attemptEnd(
      job,
      killed(16 * MiB),
      { workload: oomWorkload, output: undefined, memoryBytes: 16 * MiB },
      T,
      0,
    );
    expect(end.to).toBe('runnable');
    expect(end.fields).toMatchObject({
      attempt: 2,
      memoryBytes: 32 * MiB,
      resources: { cpus: 0.5, memoryBytes: 32 * MiB, gpus: 0 },
    });
    expect(end.note).toMatch(
      /^attempt 2 of 3 starts at \S+ with 32 MiB of memory \(attempt 1 was killed: out of memory at its 16 MiB limit/,
    );
    expect(end.endedAttempt).toMatchObject({
      attempt: 1,
      reason: 'oom_killed',
      memoryBytes: 16 * MiB,
      retried: true,
    });
  });

  it('leaves a request already above the raised memory as it was', () => {
    const job = running({ cpus: 0.5, memoryBytes: 48 * MiB, gpus: 0 });
    const end = attemptEnd(
      job,
      killed(16 * MiB),
      { workload: oomWorkload, output: undefined, memoryBytes: 16 * MiB },
      T,
      0,
    );
    expect(end.fields).toMatchObject({ memoryBytes: 32 * MiB });
    expect(end.fields).not.toHaveProperty('resources');
  });

  it('ends the job at the ceiling, its note and its attempt record saying why', () => {
    const job = running(null);
    const end = attemptEnd(
      { ...job, memoryBytes: 64 * MiB },
      killed(64 * MiB),
      { workload: oomWorkload, output: undefined, memoryBytes: 64 * MiB },
      T,
      0,
    );
    const note = `${notes.outOfMemory(64 * MiB, 63 * MiB)}; ${notes.memoryCeilingReached(64 * MiB)}`;
    expect(end).toMatchObject({ to: 'failed', note, retried: false });
    expect(end.endedAttempt).toMatchObject({ note, memoryBytes: 64 * MiB, retried: false });
  });
});

describe('an attempt after preempted ones', () => {
  it('counts the preempted attempts against none of its retries', () => {
    // Attempt 3 of a job whose strategy allows 3, two of them preempted: its first try; the 5th
    // is its third, and its last.
    const job = { ...running(null), attempt: 3, preemptions: 2 };
    const failed: Outcome = {
      to: 'failed',
      note: notes.failed(1),
      fields: { exitCode: 1, finishedAt: T },
    };
    const workload = { ...oomWorkload, exitCode: 1, cause: undefined, attempt: 3 };
    const end = attemptEnd(job, failed, { workload, output: undefined, memoryBytes: null }, T, 0);
    expect(end.to).toBe('runnable');
    expect(end.note).toMatch(/^attempt 4 of 5 starts at /);
    const last = attemptEnd(
      { ...job, attempt: 5 },
      failed,
      { workload, output: undefined, memoryBytes: null },
      T,
      0,
    );
    expect(last.to).toBe('failed');
  });
});
