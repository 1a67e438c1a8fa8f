import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  confirmCancel,
  expectState,
  openCancelDialog,
  submitViaApi,
  waitForStateViaApi,
} from './helpers';

/** A job that prints `lines` lines at once and ends. */
const printing = (lines: number) => ({
  job_definition: 'demo::shell:1',
  container_cmd_parameter: { script: `seq 1 ${lines}` },
});

test.describe('at 1440×900', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the log viewer takes most of the window, most of it above the fold', async ({
    page,
    extensions,
  }) => {
    test.skip(!extensions, 'Logs are an extension; the spec-only run has no viewer to size.');
    const id = await submitViaApi(page, printing(300));
    await waitForStateViaApi(page, id, 'completed');
    await page.goto(`/jobs/${id}`);
    const viewer = page.getByTestId('job-logs');
    await expect(page.getByTestId('log-line').first()).toBeVisible();
    const box = (await viewer.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(900 * 0.5);
    // Without scrolling, a good part of it is in sight (it was ~9 lines, under 200 px).
    expect(900 - box.y).toBeGreaterThanOrEqual(900 * 0.4);
  });
});

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a "Logs" control near the top brings the output into view', async ({
    page,
    extensions,
  }) => {
    const id = await submitViaApi(page, printing(50));
    await waitForStateViaApi(page, id, 'completed');
    await page.goto(`/jobs/${id}`);
    await expectState(page, 'completed');
    const output = extensions
      ? page.getByTestId('job-logs')
      : page.getByText('This service does not offer logs.');
    if (extensions) {
      await expect(page.getByTestId('log-line').first()).toBeAttached();
      // Below the stepper and the execution panel: at most its first lines peek in.
      await expect(output).not.toBeInViewport({ ratio: 0.5 });
    }
    const jump = page.getByRole('link', { name: 'Logs', exact: true });
    await expect(jump).toBeInViewport();
    await jump.click();
    await expect(output).toBeInViewport({ ratio: 0.5 });
  });
});

test('the header and the execution panel agree: the exit code shows with the final state', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'Executions are an extension; the spec-only run has no panel.');
  const id = await submitViaApi(page, { job_definition: 'demo::sleep:1' });
  await page.goto(`/jobs/${id}`);
  await expectState(page, 'running');
  // Every change of the page is checked as it happens, before it is painted: whenever the panel
  // shows an exit code, the header's badge must already show the job ended.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { exitCodeSeenWith: string[] }).exitCodeSeenWith = seen;
    const check = () => {
      const exitCode = document.querySelector('[data-testid="execution-exit-code"]');
      const badge = document.querySelector('main [data-testid="state-badge"]');
      if (exitCode && /^\d+$/.test(exitCode.textContent ?? ''))
        seen.push(badge?.getAttribute('data-state') ?? 'none');
    };
    new MutationObserver(check).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
  await confirmCancel(await openCancelDialog(page));
  await expect(page.getByTestId('execution-exit-code')).toHaveText('143');
  await expectState(page, 'cancelled');
  const seenWith = await page.evaluate(
    () => (window as unknown as { exitCodeSeenWith: string[] }).exitCodeSeenWith,
  );
  expect(seenWith.length).toBeGreaterThan(0);
  expect(new Set(seenWith)).toEqual(new Set(['cancelled']));
});

/** Records every "Loading…" added to the page from now on. */
async function watchForLoading(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { loadingSeen: string[] }).loadingSeen = seen;
    new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        const texts =
          mutation.type === 'characterData'
            ? [mutation.target.textContent]
            : [...mutation.addedNodes].map((node) => node.textContent);
        for (const text of texts) if (text?.includes('Loading…')) seen.push(text);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

test('the execution panel never goes back to "Loading…" once it has shown data', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'Executions are an extension; the spec-only run has no panel.');
  // Through submitted, runnable, starting, running and completed: each change is read again.
  const id = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    container_cmd_parameter: { script: 'sleep 4' },
  });
  await page.goto(`/jobs/${id}`);
  await expect(page.getByTestId('execution-command')).toBeAttached();
  await watchForLoading(page);
  // Also sampled, as a reader would see it, while it runs and as it ends.
  for (let sample = 0; sample < 40; sample += 1) {
    await expect(page.getByText('Loading…')).toHaveCount(0, { timeout: 1 });
    await page.waitForTimeout(150);
  }
  await expectState(page, 'completed');
  await expect(page.getByTestId('execution-exit-code')).toHaveText('0');
  expect(
    await page.evaluate(() => (window as unknown as { loadingSeen: string[] }).loadingSeen),
  ).toEqual([]);
});

test("a failed job's last lifecycle step is marked failed, not ticked", async ({ page }) => {
  const id = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    container_cmd_parameter: { script: 'exit 3' },
  });
  await page.goto(`/jobs/${id}`);
  await expectState(page, 'failed');
  const outcome = page.getByTestId('lifecycle-outcome');
  await expect(outcome).toHaveAccessibleName('Ended: failed, unsuccessful');
  await expect(outcome.getByRole('img', { name: 'unsuccessful' })).toBeVisible();
  // Mantine's tick is a check-mark path; the failure mark is a cross.
  await expect(outcome.locator('[data-mark="failure"]')).toBeVisible();
});

test('a cancellation and the service note share one alert', async ({ page }) => {
  // Ignores SIGTERM: the job stays cancelling through its grace period (10 s) and ends killed.
  const id = await submitViaApi(page, {
    job_definition: 'demo::shell:1',
    container_cmd_parameter: { script: "trap '' TERM; while true; do sleep 1; done" },
  });
  await page.goto(`/jobs/${id}`);
  await expectState(page, 'running');
  await confirmCancel(await openCancelDialog(page));
  await expectState(page, 'cancelling');
  const alerts = page.locator('main .mantine-Alert-root');
  await expect(alerts).toHaveCount(1);
  await expect(alerts).toContainText('Cancellation pending');
  await expect(alerts).toContainText('SIGTERM sent');
  await expectState(page, 'cancelled');
  await expect(alerts).toHaveCount(1);
  await expect(alerts).toContainText('The cancellation you requested is done.');
  await expect(alerts).toContainText('Note from the service: cancelled on request');
});

/** Contrast of a text's colour on what is painted behind it (translucent layers composited). */
async function hoveredContrast(page: Page, name: string): Promise<number> {
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });
  await link.hover();
  await page.waitForTimeout(250); // any transition done
  return link.evaluate((element) => {
    // rgb(a) in 0–255, or color(srgb …) in 0–1 (what a color-mix() computes to).
    const rgba = (css: string) => {
      const scale = css.startsWith('color(') ? 255 : 1;
      const [r, g, b, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
      return [r! * scale, g! * scale, b! * scale, a];
    };
    const over = (top: number[], bottom: number[]) =>
      [0, 1, 2].map((i) => top[i]! * top[3]! + bottom[i]! * (1 - top[3]!)).concat(1);
    const layers: number[][] = [];
    for (let node: Element | null = element; node; node = node.parentElement)
      layers.push(rgba(getComputedStyle(node).backgroundColor));
    const background = layers.reduceRight((below, layer) => over(layer, below), [255, 255, 255, 1]);
    const label = element.querySelector('.mantine-NavLink-label') ?? element;
    const text = over(rgba(getComputedStyle(label).color), background);
    const luminance = (c: number[]) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a);
    return (light! + 0.05) / (dark! + 0.05);
  });
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`a hovered nav link keeps 4.5:1 contrast (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto('/jobs');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    // The current page's link (tinted) and another one.
    for (const name of ['Jobs', 'Settings'])
      expect(await hoveredContrast(page, name), name).toBeGreaterThanOrEqual(4.5);
  });
}
