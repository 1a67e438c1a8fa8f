import {
  fractions,
  fullSize,
  simulate,
  type Simulation,
} from '../test/support/fair-share-simulation';

/**
 * Placement cost per job start (ranking and fit) and the shares, before fair share (each queue in
 * turn taking all the room it can) and after, on the full-size scenario of
 * test/domain/fair-share-scale.test.ts: `npx tsx bench/fair-share.ts` (docs/benchmarks.md).
 */
for (const ordering of ['priority', 'fair-share', 'priority', 'fair-share'] as const) {
  const sim: Simulation = fullSize(ordering);
  const result = simulate(sim);
  const shares = fractions(result.held([5400, 10_000]));
  console.log(
    JSON.stringify({
      ordering,
      microsecondsPerStart: Math.round((1000 * result.decideMs) / result.starts),
      sharesWhileAllBusy: shares,
      sharesWhileCIdle: fractions(result.held([600, 3600])),
      biggestHeadWaitMaxSeconds: Math.max(...result.biggestHeadWaits),
    }),
  );
}
