import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/chromium';

// JOBDECK_E2E_PORT moves the services (API, console, and the spec-only pair two ports up) so
// that two checkouts on one machine can run their suites at once.
const apiPort = Number(process.env.JOBDECK_E2E_PORT ?? 18080);
const services = [
  { name: 'full', config: 'e2e/jobdeck.e2e.yaml', data: 'e2e/.artifacts/data', port: apiPort },
  {
    name: 'spec-only',
    config: 'e2e/jobdeck.e2e.spec-only.yaml',
    data: 'e2e/.artifacts/data-spec-only',
    port: apiPort + 2,
  },
];
const consoleUrl = (port: number) => `http://127.0.0.1:${port + 1}`;

export default defineConfig({
  testDir: 'e2e',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  // The two services' files side by side, one file at a time on each: no test shares its service
  // with another test that runs at the same time, so none sees another's jobs or queue changes.
  workers: services.length,
  reporter: [['list']],
  outputDir: 'test-results',
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: services.map((service) => ({
    name: service.name,
    workers: 1,
    use: { baseURL: consoleUrl(service.port), extensions: service.name === 'full' },
  })),
  // The released build of this checkout (rebuilt if its sources changed) on a fresh data directory
  // each. Playwright starts them one after the other, so the first one's build serves both.
  webServer: services.map((service, index) => ({
    command: `rm -rf ${service.data} && ${index === 0 ? 'npx tsx scripts/build.ts --if-changed && ' : ''}node dist/server/cli.js start --config ${service.config} --port ${service.port} --console-port ${service.port + 1}`,
    url: consoleUrl(service.port),
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: index === 0 ? ('pipe' as const) : ('ignore' as const),
  })),
});
