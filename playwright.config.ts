import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/chromium';

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  outputDir: 'test-results',
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    baseURL: 'http://127.0.0.1:18081',
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  webServer: {
    // The real service and console on a fresh data directory, built from this checkout.
    command:
      'rm -rf e2e/.artifacts/data && npx vite build --logLevel warn && node --import tsx server/cli.ts start --config e2e/jobdeck.e2e.yaml',
    url: 'http://127.0.0.1:18081',
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
