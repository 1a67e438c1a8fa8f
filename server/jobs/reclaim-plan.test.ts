import { describe, expect, it } from 'vitest';
import { newJob } from '../../test/store/new-job';
import type { Job } from './model';
import type { Host } from './placement';
import type { Quota } from './quotas';
import { planReclaim, type ReclaimInput } from './reclaim-plan';

const GIB = 1024 ** 3;
const HOST: Host = {
  id: 'h1',
  name: 'h1',
  state: 'ready',
  cpus: 8,
  memoryBytes: 64 * GIB,
  gpus: 0,
};
const cpusQuota = (cpus: number, reclaim?: 'preempt'): Quota => ({
  nominal: { cpus },
  borrowingLimit: {},
  lendingLimit: {},
  ...(reclaim && { reclaim }),
});

let seq = 0;
/** A job of `project` asking for `cpus`, running since `startedAt` on HOST (or waiting). */
function job(project: string, cpus: number, startedAt: number | null): Job {
  seq += 1;
  const planned = newJob({
    project,
    queue: `${project}::default`,
    resources: { cpus, memoryBytes: GIB, gpus: 0 },
  });
  return {
    ...planned,
    id: `${project}-${seq}`,
    seq,
    state: startedAt === null ? 'runnable' : 'running',
    systemNote: null,
    updatedAt: null,
    containerId: null,
    exitCode: null,
    startedAt,
    finishedAt: null,
    cancelRequestedAt: null,
    cancelRequestedBy: null,
    owner: 'i1',
    ownerEpoch: 1,
    node: null,
    host: startedAt === null ? null : HOST.id,
    placementNote: null,
    attempt: 1,
    notBefore: null,
    preemption: null,
    preemptions: 0,
  };
}

/** a lends 4 CPUs of its 4 to b (quota 4), which holds all 8 of the host's. */
function input(holding: Job[], waiting: Job, over: Partial<ReclaimInput> = {}): ReclaimInput {
  return {
    waiting,
    holding,
    settings: {
      projects: new Map([
        ['a', cpusQuota(4, 'preempt')],
        ['b', cpusQuota(4)],
      ]),
      queues: new Map(),
    },
    hosts: [HOST],
    serviceMax: 100,
    queueMax: 10,
    fallback: { cpus: 1, memoryBytes: GIB },
    ...over,
  };
}

const ids = (jobs: readonly Job[] | undefined) => jobs?.map((j) => j.id);

describe('planReclaim', () => {
  it('preempts the fewest borrowed jobs that free enough, the youngest of equals', () => {
    const big = job('b', 4, 1000);
    const older = job('b', 2, 2000);
    const young = job('b', 1, 3000);
    const youngest = job('b', 1, 4000);
    const waiting = job('a', 2, null);
    const plan = planReclaim(input([big, older, young, youngest], waiting));
    // One job alone that frees 2 CPUs: the younger of the two that do.
    expect(ids(plan?.victims)).toEqual([older.id]);
    expect(plan!.reasonFor(older)).toBe('a reclaimed 2 CPUs it lent');
    // 3 CPUs: no one job of 1 or 2 frees enough, 4 does, alone.
    expect(
      ids(planReclaim(input([big, older, young, youngest], job('a', 3, null)))?.victims),
    ).toEqual([big.id]);
  });

  it("preempts nothing beyond what is lent, nor a member's jobs within its own quota", () => {
    const b1 = job('b', 4, 1000);
    const b2 = job('b', 2, 2000);
    const a1 = job('a', 2, 3000);
    // a holds 2 of its 4 and asks 3 more: beyond its quota.
    expect(planReclaim(input([b1, b2, a1], job('a', 3, null)))).toBeUndefined();
    // b holds 6 (borrows 2): preempting b2 gives a its 2; b1 is within b's quota.
    expect(ids(planReclaim(input([b1, b2, a1], job('a', 2, null)))?.victims)).toEqual([b2.id]);
    // b within its quota, c without one: the host is full, and nothing of it is borrowed.
    expect(planReclaim(input([b1, a1, job('c', 2, 2500)], job('a', 2, null)))).toBeUndefined();
  });

  it('waits for a preemption under way that frees enough, and does nothing for a job that fits', () => {
    const b1 = job('b', 4, 1000);
    const b2 = { ...job('b', 4, 2000), preemption: { at: 1, reason: 'r' } };
    expect(planReclaim(input([b1, b2], job('a', 4, null)))).toBeUndefined();
    expect(planReclaim(input([b1], job('a', 4, null)))).toBeUndefined();
  });

  it('takes nothing back for a lender that reclaims by waiting', () => {
    const settings = {
      projects: new Map([
        ['a', cpusQuota(4)],
        ['b', cpusQuota(4)],
      ]),
      queues: new Map(),
    };
    const holding = [job('b', 4, 1000), job('b', 4, 2000)];
    expect(planReclaim(input(holding, job('a', 2, null), { settings }))).toBeUndefined();
  });

  it('counts slots where the engine reports no hosts', () => {
    const holding = [job('b', 1, 1000), job('b', 1, 2000), job('b', 1, 3000)];
    const slots = { hosts: undefined, serviceMax: 3 };
    const quotas = {
      settings: {
        projects: new Map<string, Quota>([
          ['a', { nominal: { jobs: 1 }, borrowingLimit: {}, lendingLimit: {}, reclaim: 'preempt' }],
          ['b', { nominal: { jobs: 2 }, borrowingLimit: {}, lendingLimit: {} }],
        ]),
        queues: new Map(),
      },
    };
    const plan = planReclaim(input(holding, job('a', 1, null), { ...slots, ...quotas }));
    expect(ids(plan?.victims)).toEqual([holding[2]!.id]);
    expect(plan!.reasonFor(holding[2]!)).toBe('a reclaimed 1 job it lent');
  });
});
