import { defineConfig } from 'vitest/config';

/**
 * The Slurm engine on a real one-machine cluster (scripts/slurm-up.sh). Its own configuration,
 * kept out of `npx vitest run` (it needs root and the cluster): `npm run test:slurm` runs it.
 */
export default defineConfig({
  test: {
    name: 'slurm',
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/slurm/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/support/global-setup.ts', 'test/slurm/slurm-setup.ts'],
    // One file at a time: they share the cluster's two CPUs.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
