import { describe, expect, it } from 'vitest';
import { CPUS, fractions, fullSize, simulate } from '../support/fair-share-simulation';

/**
 * Fair share at full size (issue 49): 10,000 jobs of mixed sizes from three projects weighing
 * 3:2:1 on 50 hosts of three sizes, in virtual time, each start decided by the dispatcher's
 * ranking (rankQueues) and the claim's placement (place). Project c submits nothing for the
 * first hour: a and b share its room 3:2 meanwhile; then every project is busy and each holds
 * its weight's share of the CPUs.
 */
describe('fair share at full size: 10,000 jobs, three projects 3:2:1, 50 hosts', () => {
  it('gives busy projects their weights, lends an idle one’s share, never over-commits', () => {
    const result = simulate(fullSize('fair-share'));
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
