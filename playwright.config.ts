import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/chromium';

// JOBDECK_E2E_PORT moves the service (and the console, one port up) so that two checkouts on one
// machine can run their suites at once.
const apiPort = Number(process.env.JOBDECK_E2E_PORT ?? 18080);
const consoleUrl = `http://127.0.0.1:${apiPort + 1}`;

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
    baseURL: consoleUrl,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  webServer: {
    // The real service and console on a fresh data directory, built from this checkout.
    command: `rm -rf e2e/.artifacts/data && npx vite build --logLevel warn && node --import tsx server/cli.ts start --config e2e/jobdeck.e2e.yaml --port ${apiPort} --console-port ${apiPort + 1}`,
    url: consoleUrl,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
