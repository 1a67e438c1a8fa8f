import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures';

/** A name no other test uses, so filters and counts see only that test's jobs. */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}`;

/**
 * The submit form with its definition and queue typed, and nothing else: a definition typed whole
 * loads its command and parameters (where the service declares it), which are removed again so
 * that each test starts from the same form on every service.
 */
export async function fillBasics(page: Page, definition: string, queue = 'demo::default') {
  await page.goto('/submit');
  await page.getByRole('combobox', { name: 'Job definition' }).fill(definition);
  await page.getByRole('combobox', { name: 'Job queue' }).fill(queue);
  await expect(page.getByRole('form', { name: 'Submit a job' })).toHaveAttribute(
    'data-definition-settled',
    'true',
  );
  for (const remove of [/^Remove word \d+$/, /^Remove parameter \d+$/]) {
    const buttons = page.getByRole('button', { name: remove });
    while ((await buttons.count()) > 0) await buttons.first().click();
  }
}

export async function addParameter(page: Page, key: string, value: string) {
  const index = (await page.getByRole('textbox', { name: /^Parameter \d+ key$/ }).count()) + 1;
  await page.getByRole('button', { name: 'Add parameter' }).click();
  await page.getByRole('textbox', { name: `Parameter ${index} key` }).fill(key);
  await page.getByRole('textbox', { name: `Parameter ${index} value` }).fill(value);
}

/** Submits and waits for the job page; returns the new job's id. */
export async function submitAndOpen(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Submit job' }).click();
  await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
  return decodeURIComponent(page.url().split('/jobs/')[1]!);
}

/** Job Submit through the console's proxy (which adds the key), as a script would. */
export async function submitViaApi(page: Page, payload: Record<string, unknown>): Promise<string> {
  const response = await page.request.post('/v1/client/job', {
    data: { job_queue: 'demo::default', ...payload },
  });
  expect(response.status(), await response.text()).toBe(202);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** Job Detail through the proxy until the job is in `state`. */
export async function waitForStateViaApi(page: Page, id: string, state: string) {
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(`/v1/client/job/${id}`)).json()) as {
            data: { state: string };
          }
        ).data.state,
      { timeout: 30_000 },
    )
    .toBe(state);
}

/**
 * Opens the job page's cancel dialog and waits until it has finished appearing: a click while it
 * is still moving in can miss the button (once in CI, the job then ran on).
 */
export async function openCancelDialog(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Cancel job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this job?' });
  await expect(dialog.getByRole('button', { name: 'Keep running' })).toBeVisible();
  await dialog.evaluate((element) =>
    Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)),
  );
  return dialog;
}

/** Confirms the cancel dialog; it closes once the service has accepted the request. */
export async function confirmCancel(dialog: Locator) {
  await dialog.getByRole('button', { name: 'Cancel job' }).click();
  await expect(dialog).toBeHidden();
}

/**
 * Collects Content Security Policy violations: what the page's own listener sees (since the last
 * full load) and what Chromium reports in the console (all along). Call it before the first
 * navigation; the function it gives reads them.
 */
export async function watchCspViolations(page: Page): Promise<() => Promise<string[]>> {
  const reported: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const seen = ((window as unknown as { __violations?: string[] }).__violations ??= []);
      seen.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) reported.push(message.text());
  });
  return async () => [
    ...reported,
    ...(await page.evaluate(
      () => (window as unknown as { __violations?: string[] }).__violations ?? [],
    )),
  ];
}

export async function expectState(page: Page, state: string, timeout = 30_000) {
  await expect(page.getByTestId('state-badge').first()).toHaveAttribute('data-state', state, {
    timeout,
  });
}

/**
 * The pictures of the README and docs/console.md: what a person sees in the window (the header at the top), taken in
 * the run against the full service only; `degraded` names a picture of the spec-only run. They
 * replace `docs/screenshots/` only when asked (`npm run screenshots`), so that a test run leaves
 * the tree as it found it; otherwise they go beside the run's other output in test-results/.
 */
export async function screenshot(page: Page, name: string, options: { degraded?: boolean } = {}) {
  // Both full services take them (full-2 runs half of the full project's files).
  const full = test.info().project.name !== 'spec-only';
  if (full === Boolean(options.degraded)) return;
  const path =
    process.env.JOBDECK_SCREENSHOTS === '1'
      ? `docs/screenshots/${name}.png`
      : test.info().outputPath(`${name}.png`);
  // Transitions finished (a dialog fading in would be caught half-drawn).
  await page.screenshot({ path, animations: 'disabled' });
}
