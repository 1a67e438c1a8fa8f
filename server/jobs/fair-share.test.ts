import { describe, expect, it } from 'vitest';
import {
  NO_USAGE,
  atShareClause,
  dominantShare,
  effectiveUse,
  rankQueues,
  shareFigures,
  type QueueUse,
  type ShareInput,
  type ShareQueue,
  type Usage,
} from './fair-share';

const GIB = 1024 ** 3;
const HOUR_MS = 3_600_000;
const capacity: Usage = { cpus: 100, memoryBytes: 400 * GIB, gpus: 0, jobs: 1000 };

const queue = (ref: string, over: Partial<ShareQueue> = {}): ShareQueue => ({
  ref,
  project: ref.split('::')[0]!,
  priority: 0,
  ...over,
});
const holding = (cpus: number, gib = 0, jobs = 1): QueueUse => ({
  now: { cpus, memoryBytes: gib * GIB, gpus: 0, jobs },
  recent: NO_USAGE,
});

const input = (over: Partial<ShareInput>): ShareInput => ({
  queues: [],
  projectWeights: new Map(),
  use: new Map(),
  capacity,
  halfLifeMs: HOUR_MS,
  ...over,
});

describe('dominantShare', () => {
  it('is the largest fraction held of any capacity, capacities of 0 left out', () => {
    expect(dominantShare({ cpus: 10, memoryBytes: 200 * GIB, gpus: 3, jobs: 1 }, capacity)).toEqual(
      {
        dimension: 'memoryBytes',
        fraction: 0.5,
      },
    );
  });
});

describe('effectiveUse', () => {
  it('turns decayed amount-seconds back into the amount held: a steady hold counts twice', () => {
    // Holding 10 CPUs for ever sums, decayed, to 10 × half-life / ln 2 CPU-seconds.
    const recent = { ...NO_USAGE, cpus: (10 * 3600) / Math.LN2 };
    expect(effectiveUse({ now: { ...NO_USAGE, cpus: 10 }, recent }, HOUR_MS).cpus).toBeCloseTo(20);
  });
});

describe('rankQueues', () => {
  it('offers room first to the project furthest below its weighted share', () => {
    const queues = [queue('a::q'), queue('b::q'), queue('c::q')];
    const ranked = rankQueues(
      input({
        queues,
        projectWeights: new Map([
          ['a', 3],
          ['b', 2],
          ['c', 1],
        ]),
        // Shares over weights: a 45/3 = 15, b 40/2 = 20, c 10/1 = 10.
        use: new Map([
          ['a::q', holding(45)],
          ['b::q', holding(40)],
          ['c::q', holding(10)],
        ]),
      }),
    );
    expect(ranked.map((q) => q.ref)).toEqual(['c::q', 'a::q', 'b::q']);
  });

  it('counts the dimension a project holds most of, not CPUs alone', () => {
    // a holds few CPUs but half the memory: it is the heavier user.
    const ranked = rankQueues(
      input({
        queues: [queue('a::q'), queue('b::q')],
        use: new Map([
          ['a::q', holding(5, 200)],
          ['b::q', holding(30, 10)],
        ]),
      }),
    );
    expect(ranked.map((q) => q.ref)).toEqual(['b::q', 'a::q']);
  });

  it('counts recent use: a project that just ran a lot waits behind one that did not', () => {
    const ranked = rankQueues(
      input({
        queues: [queue('a::q'), queue('b::q')],
        use: new Map([
          ['a::q', { now: NO_USAGE, recent: { ...NO_USAGE, cpus: 50 * 3600 } }],
          ['b::q', holding(10)],
        ]),
      }),
    );
    expect(ranked.map((q) => q.ref)).toEqual(['b::q', 'a::q']);
  });

  it('keeps priority between the queues of a project, then their weights', () => {
    const ranked = rankQueues(
      input({
        queues: [
          queue('a::low', { priority: 0 }),
          queue('a::urgent', { priority: 5 }),
          queue('a::heavy', { priority: 5, weight: 4 }),
        ],
        use: new Map([
          ['a::urgent', holding(10)],
          ['a::heavy', holding(20)],
        ]),
      }),
    );
    // heavy holds 20 over weight 4 (5) against urgent's 10 over 1: heavy is further below.
    expect(ranked.map((q) => q.ref)).toEqual(['a::heavy', 'a::urgent', 'a::low']);
  });
});

describe('shareFigures', () => {
  it("gives each project its weight over the weights of those with work; an idle one's is lent", () => {
    const figures = shareFigures({
      ...input({
        queues: [queue('a::q'), queue('b::q'), queue('c::q')],
        projectWeights: new Map([
          ['a', 3],
          ['b', 1],
          ['c', 4],
        ]),
        use: new Map([
          ['a::q', holding(62)],
          ['b::q', holding(38)],
        ]),
      }),
      waiting: new Set(['b::q']),
    });
    expect(figures.map((p) => [p.project, p.due, p.active])).toEqual([
      ['a', 0.75, true],
      ['b', 0.25, true],
      // c has no work: what it would be due if its work came.
      ['c', 0.5, false],
    ]);
    expect(atShareClause(figures[1]!)).toBe('project b is at its share (38 % of cpus, share 25 %)');
    expect(atShareClause(figures[0]!)).toBeUndefined();
  });

  it('says nothing of a share while no other project has work: the room it waits for is its own', () => {
    const [alone] = shareFigures({
      ...input({
        queues: [queue('a::q'), queue('b::q')],
        use: new Map([['a::q', { ...holding(100), now: { ...holding(100).now, jobs: 1000 } }]]),
      }),
      waiting: new Set(['a::q']),
    });
    expect(alone!.due).toBe(1);
    expect(alone!.dominant.fraction).toBe(1);
    expect(atShareClause(alone!)).toBeUndefined();
  });
});
