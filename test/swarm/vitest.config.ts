import { defineConfig } from 'vitest/config';

/**
 * The Swarm engine on a real three-node swarm (scripts/swarm-up.sh). Its own configuration, kept
 * out of `npx vitest run` (it needs root and a swarm): `npm run test:swarm` runs it.
 */
export default defineConfig({
  test: {
    name: 'swarm',
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/swarm/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/support/global-setup.ts', 'test/swarm/swarm-setup.ts'],
    // One file at a time: they share the swarm, and one of them drains and stops its nodes.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
