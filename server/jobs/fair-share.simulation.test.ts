import { describe, expect, it } from 'vitest';
import type { Host } from './placement';
import { simulate, type SimJob, type Simulation } from './fair-share.simulation';

/**
 * Fair share at full size (issue 49): 10,000 jobs of mixed sizes from three projects weighing
 * 3:2:1 on 50 hosts of three sizes, in virtual time, each start decided by the dispatcher's
 * ranking (rankQueues) and the claim's placement (place). Project c submits nothing for the
 * first hour: a and b share its room 3:2 meanwhile; then every project is busy and each holds
 * its weight's share of the CPUs.
 */
const GIB = 1024 ** 3;

function hosts(): Host[] {
  const sizes = [
    { name: 'small', count: 20, cpus: 8, gib: 32, gpus: 0 },
    { name: 'medium', count: 20, cpus: 16, gib: 64, gpus: 0 },
    { name: 'large', count: 10, cpus: 32, gib: 256, gpus: 4 },
  ];
  return sizes.flatMap(({ name, count, cpus, gib, gpus }) =>
    Array.from({ length: count }, (_, i) => ({
      id: `${name}-${i + 1}`,
      name: `${name}-${i + 1}`,
      cpus,
      memoryBytes: gib * GIB,
      gpus,
      state: 'ready' as const,
    })),
  );
}

/** Sizes with their weights in the mix: many small jobs, GPU jobs (large hosts only), whole medium hosts. */
const MIX = [
  { cpus: 1, gib: 2, gpus: 0, weight: 40 },
  { cpus: 2, gib: 8, gpus: 0, weight: 30 },
  { cpus: 4, gib: 16, gpus: 0, weight: 15 },
  { cpus: 4, gib: 16, gpus: 1, weight: 10 },
  { cpus: 16, gib: 64, gpus: 0, weight: 5 },
];
const BIGGEST = MIX.at(-1)!;

/** A fixed sequence, so a failure can be run again as it was. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function jobs(): SimJob[] {
  const draw = random(49);
  const total = MIX.reduce((sum, m) => sum + m.weight, 0);
  const submitted: SimJob[] = [];
  // In proportion to the weights, so that all three stay busy together for hours.
  const perProject = { a: 5000, b: 3333, c: 1667 };
  for (const [project, count] of Object.entries(perProject)) {
    for (let i = 0; i < count; i += 1) {
      let pick = draw() * total;
      const size = MIX.find((m) => (pick -= m.weight) < 0) ?? BIGGEST;
      submitted.push({
        id: `${project}-${i}`,
        queue: `${project}::q`,
        resources: { cpus: size.cpus, memoryBytes: size.gib * GIB, gpus: size.gpus },
        runSeconds: 60 + Math.floor(draw() * 540),
        at: project === 'c' ? 3600 : 0,
        biggest: size === BIGGEST,
      });
    }
  }
  return submitted;
}

const simulation = (ordering: Simulation['ordering']): Simulation => ({
  hosts: hosts(),
  queues: ['a', 'b', 'c'].map((p) => ({ ref: `${p}::q`, project: p })),
  projectWeights: new Map([
    ['a', 3],
    ['b', 2],
    ['c', 1],
  ]),
  jobs: jobs(),
  halfLifeSeconds: 600,
  ordering,
  candidates: 32,
});

function fractions(held: Map<string, number>): Record<string, number> {
  const total = [...held.values()].reduce((sum, n) => sum + n, 0);
  return Object.fromEntries(['a', 'b', 'c'].map((p) => [p, (held.get(p) ?? 0) / total]));
}

const CPUS = 20 * 8 + 20 * 16 + 10 * 32;

describe('fair share at full size: 10,000 jobs, three projects 3:2:1, 50 hosts', () => {
  it('gives busy projects their weights, lends an idle one’s share, never over-commits', () => {
    const result = simulate(simulation('fair-share'));
    expect(result.starts).toBe(10_000);
    expect(result.overCommits).toBe(0);

    // c idle (its jobs come at 3,600 s): a and b hold its room between them, 3:2.
    const idle = result.held([600, 3600]);
    const idleShares = fractions(idle);
    expect(idleShares.c).toBe(0);
    expect(Math.abs(idleShares.a! - 0.6)).toBeLessThan(0.05);
    expect(Math.abs(idleShares.b! - 0.4)).toBeLessThan(0.05);
    const idleUse = ((idle.get('a') ?? 0) + (idle.get('b') ?? 0)) / (CPUS * 3000);
    expect(idleUse).toBeGreaterThan(0.9);

    // Every project busy (from three half-lives after c came until a's jobs run out).
    const busyUntil = Math.min(...result.lastStart.values());
    const busy: [number, number] = [3600 + 1800, busyUntil];
    expect(busy[1] - busy[0]).toBeGreaterThan(3600);
    const shares = fractions(result.held(busy));
    const errors = {
      a: shares.a! - 3 / 6,
      b: shares.b! - 2 / 6,
      c: shares.c! - 1 / 6,
    };
    for (const error of Object.values(errors)) expect(Math.abs(error)).toBeLessThan(0.05);

    // The biggest jobs (16 CPUs and 64 GiB: a whole medium host, half a large one) start
    // within 15 minutes of reaching their queue's head: the longest job runs 10.
    const longestWait = Math.max(...result.biggestHeadWaits);
    expect(longestWait).toBeLessThan(900);

    console.log(
      JSON.stringify({
        busyWindow: busy,
        shares,
        errors,
        idleShares,
        idleUse,
        biggestHeadWaitMax: longestWait,
        decideUsPerStart: (1000 * result.decideMs) / result.starts,
      }),
    );
  }, 120_000);
});
