import { defineConfig } from 'vitest/config';

/**
 * The reliability suite: the real service, real containers, hostile clients and faults; each
 * file records figures (see figures.ts). Its own configuration, kept out of `npx vitest run` for
 * its length: `npm run test:reliability` runs it all, RELIABILITY_BUDGET=ci a bounded part.
 */
export default defineConfig({
  test: {
    name: 'reliability',
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/reliability/**/*.test.ts'],
    environment: 'node',
    globalSetup: [
      'test/support/global-setup.ts',
      'test/support/postgres-setup.ts',
      'test/reliability/figures-setup.ts',
    ],
    // One file at a time: the machine's two cores are the budget, and figures must not contend.
    fileParallelism: false,
    testTimeout: 15 * 60_000,
    hookTimeout: 120_000,
  },
});
