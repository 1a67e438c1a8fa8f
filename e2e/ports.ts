/**
 * The e2e services' first port (API, console, and the others two and four ports up). Below
 * test/support/free-port.ts's range (10,000 and up), so that no server of the Vitest suites that
 * run beside e2e in scripts/test-all.sh can be handed one of them. JOBDECK_E2E_PORT moves them,
 * so that two checkouts on one machine can run their suites at once.
 */
export const E2E_DEFAULT_API_PORT = 9080;
export const E2E_API_PORT = Number(process.env.JOBDECK_E2E_PORT ?? E2E_DEFAULT_API_PORT);
