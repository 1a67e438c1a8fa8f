import { describe, expect, it } from 'vitest';
import { NO_USAGE, type Usage } from './fair-share';
import {
  NO_QUOTAS,
  cohortFigures,
  quotaClause,
  quotaView,
  roomOf,
  type Quota,
  type QuotaMember,
} from './quotas';

const GIB = 1024 ** 3;
const cpus = (n: number, jobs = 0): Usage => ({ ...NO_USAGE, cpus: n, jobs });
const quota = (over: Partial<Quota> & { cpus?: number } = {}): Quota => ({
  nominal: { cpus: over.cpus ?? 8, ...over.nominal },
  borrowingLimit: over.borrowingLimit ?? {},
  lendingLimit: over.lendingLimit ?? {},
});
const member = (id: string, q: Quota | undefined, used: Usage, waiting = false): QuotaMember => ({
  id,
  quota: q,
  used,
  waiting,
});

describe('cohortFigures', () => {
  it('holds a member alone at its quota: no one to borrow from', () => {
    const figures = cohortFigures([member('a', quota(), cpus(6))]);
    expect(figures.get('a')!.room.cpus).toBe(2);
    expect(figures.get('a')!.room.memoryBytes).toBe(Infinity);
  });

  it("borrows others' unused quota up to its borrowing limit, and counts it borrowed and lent", () => {
    const figures = cohortFigures([
      member('a', quota({ borrowingLimit: { cpus: 2 } }), cpus(9)),
      member('b', quota(), cpus(1)),
    ]);
    const a = figures.get('a')!;
    expect(a.room.cpus).toBe(1);
    expect(a.borrowed.cpus).toBe(1);
    expect(figures.get('b')!.lent.cpus).toBe(1);
    expect(a.bounds.cpus).toMatchObject({ quota: 8, borrowed: 1, limit: 2 });
  });

  it('borrows no more than the lenders leave unused when no limit is set', () => {
    const figures = cohortFigures([
      member('a', quota(), cpus(10)),
      member('b', quota(), cpus(5)),
      member('c', quota(), cpus(7)),
    ]);
    // b leaves 3 and c 1 unused; a borrows 2 of those already.
    expect(figures.get('a')!.room.cpus).toBe(2);
    expect(figures.get('a')!.bounds.cpus!.limit).toBeUndefined();
  });

  it("respects a lender's lending limit", () => {
    const figures = cohortFigures([
      member('a', quota(), cpus(8)),
      member('b', quota({ lendingLimit: { cpus: 3 } }), NO_USAGE),
    ]);
    expect(figures.get('a')!.room.cpus).toBe(3);
  });

  it("lends nothing more while the lender's own work waits: reclaim by waiting", () => {
    const idle = cohortFigures([member('a', quota(), cpus(8)), member('b', quota(), cpus(2))]);
    expect(idle.get('a')!.room.cpus).toBe(6);
    const waiting = cohortFigures([
      member('a', quota(), cpus(10)),
      member('b', quota(), cpus(2), true),
    ]);
    expect(waiting.get('a')!.room.cpus).toBe(0);
    expect(waiting.get('a')!.bounds.cpus!.reclaiming).toBe(true);
    // The lender may still use its own quota.
    expect(waiting.get('b')!.room.cpus).toBe(6);
  });

  it('leaves a member without a quota, and a dimension without one, unlimited', () => {
    const figures = cohortFigures([
      member('a', undefined, cpus(100)),
      member('b', quota(), cpus(1)),
    ]);
    expect(figures.get('a')!.room).toEqual({
      cpus: Infinity,
      memoryBytes: Infinity,
      gpus: Infinity,
      jobs: Infinity,
    });
    // a's use is no one's borrowing: b keeps all of its own quota.
    expect(figures.get('b')!.room.cpus).toBe(7);
  });
});

describe('quotaView', () => {
  const queues = [
    { ref: 'a::fast', project: 'a' },
    { ref: 'a::slow', project: 'a' },
    { ref: 'b::default', project: 'b' },
  ];

  it("gives a queue the tighter of its own and its project's room", () => {
    const settings = {
      projects: new Map([['a', quota({ cpus: 4, borrowingLimit: { cpus: 0 } })]]),
      queues: new Map([['a::fast', quota({ cpus: 3, nominal: { jobs: 2 } })]]),
    };
    const used = new Map([
      ['a::fast', cpus(1, 1)],
      ['a::slow', cpus(2, 1)],
    ]);
    const view = quotaView({ queues, settings, used, waiting: new Set() });
    // The queue has 2 CPUs of room; the project 1.
    expect(roomOf(view, queues[0]!)).toMatchObject({ cpus: 1, jobs: 1 });
    expect(roomOf(view, queues[2]!).cpus).toBe(Infinity);
    expect(quotaClause(view, queues[0]!, cpus(2, 1))).toBe(
      'project a is at its quota of 4 cpus (borrowing 0 of 0 allowed)',
    );
    expect(quotaClause(view, queues[0]!, cpus(1, 1))).toBeUndefined();
  });

  it('says which queue is at its quota, in memory or in jobs', () => {
    const settings = {
      projects: new Map<string, Quota>(),
      queues: new Map([
        [
          'a::fast',
          { nominal: { memoryBytes: 4 * GIB, jobs: 1 }, borrowingLimit: {}, lendingLimit: {} },
        ],
      ]),
    };
    const used = new Map([['a::fast', { ...NO_USAGE, memoryBytes: 4 * GIB, jobs: 1 }]]);
    const view = quotaView({ queues, settings, used, waiting: new Set() });
    expect(quotaClause(view, queues[0]!, { ...NO_USAGE, memoryBytes: GIB, jobs: 1 })).toBe(
      'queue a::fast is at its quota of 4 GiB of memory (borrowing 0 bytes; no unused quota to borrow)',
    );
  });

  it('limits nothing without quotas', () => {
    const view = quotaView({ queues, settings: NO_QUOTAS, used: new Map(), waiting: new Set() });
    expect(roomOf(view, queues[0]!).cpus).toBe(Infinity);
  });
});
