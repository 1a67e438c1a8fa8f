import { defineConfig } from '@playwright/test';
import { e2eLaunchOptions } from './e2e/chromium';
import { E2E_API_PORT } from './e2e/ports';

// Half the full service's files, by time, on a second full service. In a clean-clone CI (tests'
// own times summed, in the headless shell) the full service's files took 544 s, these 419 and the
// spec-only ones 310: the phase waited on the first worker, so the outages (56 s, a service of
// their own) moved here.
const SECOND_FULL = [
  '**/accessibility.spec.ts',
  '**/bulk-actions.spec.ts',
  '**/job-page.spec.ts',
  '**/operator.spec.ts',
  '**/operator-trips.spec.ts',
  '**/outages.spec.ts',
];
const services = [
  {
    name: 'full',
    extensions: true,
    config: 'e2e/jobdeck.e2e.yaml',
    data: 'e2e/.artifacts/data',
    port: E2E_API_PORT,
    testIgnore: SECOND_FULL,
  },
  {
    name: 'spec-only',
    extensions: false,
    config: 'e2e/jobdeck.e2e.spec-only.yaml',
    data: 'e2e/.artifacts/data-spec-only',
    port: E2E_API_PORT + 2,
  },
  {
    name: 'full-2',
    extensions: true,
    config: 'e2e/jobdeck.e2e.yaml',
    data: 'e2e/.artifacts/data-2',
    port: E2E_API_PORT + 4,
    testMatch: SECOND_FULL,
  },
];
const consoleUrl = (port: number) => `http://127.0.0.1:${port + 1}`;

export default defineConfig({
  testDir: 'e2e',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  // Three files side by side, one file at a time on each service: no test shares its service
  // with another test that runs at the same time, so none sees another's jobs or queue changes.
  // Three workers on two cores: back to back on a quiet machine, the suite took 343 s on two
  // and 328 s on three.
  workers: 3,
  reporter: [['list']],
  outputDir: 'test-results',
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: e2eLaunchOptions,
  },
  projects: services.map((service) => ({
    name: service.name,
    workers: 1,
    testIgnore: service.testIgnore,
    testMatch: service.testMatch,
    use: { baseURL: consoleUrl(service.port), extensions: service.extensions },
  })),
  // The released build of this checkout (rebuilt if its sources changed) on a fresh data directory
  // each. Playwright starts them one after the other, so the first one's build serves all.
  webServer: services.map((service, index) => ({
    command: `rm -rf ${service.data} && ${index === 0 ? 'npx tsx scripts/build.ts --if-changed && ' : ''}node dist/server/cli.js start --config ${service.config} --data-dir ${service.data} --port ${service.port} --console-port ${service.port + 1}`,
    url: consoleUrl(service.port),
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: index === 0 ? ('pipe' as const) : ('ignore' as const),
  })),
});
