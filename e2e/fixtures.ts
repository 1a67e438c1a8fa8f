import { test as base } from '@playwright/test';

/**
 * Every spec runs twice: against the full service (`extensions: true`) and against the same
 * service with its extensions switched off, the spec's three operations only (`false`). A test
 * that depends on an extension asserts the page's degraded form in the second run.
 */
export const test = base.extend<{ extensions: boolean }>({
  extensions: [true, { option: true }],
});

export { expect } from '@playwright/test';
