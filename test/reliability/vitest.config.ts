import { defineConfig } from 'vitest/config';

/**
 * The reliability suite: the real service, real containers, hostile clients and faults; each
 * file records figures (see figures.ts). Its own configuration, kept out of `npx vitest run` for
 * its length: `npm run test:reliability` runs it all, RELIABILITY_BUDGET=ci a bounded part.
 */
const boundedForCi = process.env.RELIABILITY_BUDGET === 'ci';

// The files whose assertions compare latencies (a p99 against the idle one) or bound a takeover
// (a new dispatcher within 2 s of a kill -9): always alone. The slow-client file (http-hardening)
// asserts times too, but 5 to 30 s timeouts met within 1.5 s: it mostly waits, and runs with the
// others.
const TIMED = ['load-races', 'event-replay', 'dispatcher-lease'].map(
  (name) => `test/reliability/${name}.test.ts`,
);

const shared = {
  root: new URL('../..', import.meta.url).pathname,
  environment: 'node',
  testTimeout: 15 * 60_000,
  hookTimeout: 120_000,
};

// Once for the run, before either group (the timed group reads the environment it sets).
const globalSetup = [
  'test/support/global-setup.ts',
  'test/support/postgres-setup.ts',
  'test/reliability/figures-setup.ts',
];

const untimed = {
  ...shared,
  name: 'reliability',
  include: ['test/reliability/**/*.test.ts'],
  exclude: TIMED,
  // One file at a time for the figures the docs quote (the whole suite). The bounded part in CI
  // runs two at a time: these files mostly wait (on timeouts, soaks, restarts, a private
  // dockerd), 0.8 of 2 cores busy one at a time, and compare no latencies.
  maxWorkers: boundedForCi ? 2 : 1,
  sequence: { groupOrder: 0 },
};
const timed = {
  ...shared,
  name: 'reliability (timed)',
  include: TIMED,
  // Once the others have ended: nothing contends with what these measure.
  fileParallelism: false,
  sequence: { groupOrder: 1 },
};

// RELIABILITY_GROUP=untimed or timed runs one group, with the run's setup: CI runs the untimed
// beside other suites that mostly wait, and the timed alone (scripts/test-all.sh).
const group = process.env.RELIABILITY_GROUP;
const groups = group === 'untimed' ? [untimed] : group === 'timed' ? [timed] : [untimed, timed];

export default defineConfig({
  test: {
    projects: groups.map((test, index) => ({
      test: index === 0 ? { ...test, globalSetup } : test,
    })),
  },
});
