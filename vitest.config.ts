import { defineConfig } from 'vitest/config';

// Services under test run on SQLite unless JOBDECK_TEST_STORE=postgres (scripts/test-all.sh runs
// the service suite on both).
const POSTGRES_SETUP = 'test/support/postgres-setup.ts';
const servicesOnPostgres = process.env.JOBDECK_TEST_STORE === 'postgres';
const serviceSetup = [
  'test/support/global-setup.ts',
  ...(servicesOnPostgres ? [POSTGRES_SETUP] : []),
];

export default defineConfig({
  test: {
    // Most files wait on containers and PostgreSQL, not the CPU: three at a time on two cores
    // halve the suite's time (CONTRIBUTING.md), four were slower again.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'client/**/*.test.ts',
            'contract/**/*.test.ts',
            'server/**/*.test.ts',
            'test/domain/**/*.test.ts',
            'test/docs/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'console',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // Typing with user-event on a shared 2-core machine can take seconds per test, and
          // beside the service tests' containers a slower CI machine took past 20 s for one form.
          testTimeout: 60_000,
          setupFiles: ['src/test/setup.ts'],
          // React, Mantine and the console's modules imported once per worker, not once per file:
          // 143 -> 60 s and 275 -> 109 CPU-seconds for this tier. Each file stubs and unstubs its
          // own globals and the setup file cleans the DOM and storage, so no file sees another's
          // (the tier passes with its files shuffled: --sequence.shuffle.files).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'service',
          include: ['test/service/**/*.test.ts'],
          environment: 'node',
          globalSetup: serviceSetup,
          // Beyond a job's wait (60 s: waitForState): a test's own words say what was late.
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // One suite over every engine: the fake and the local Docker Engine here; the swarm's
          // row (test/swarm/runtime.contract.test.ts) needs root and a swarm: npm run test:swarm.
          name: 'engine',
          include: ['test/engine/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // One suite over every store driver: SQLite files and a throw-away PostgreSQL.
          name: 'store',
          include: ['test/store/**/*.test.ts'],
          environment: 'node',
          globalSetup: [POSTGRES_SETUP],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
