import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { screenshot } from './helpers';

const SCHEDULE = 'every-5s';

interface Firing {
  fire_at: string;
  job_id: string | null;
}

/** The schedule's recent firings as the service lists them, newest first. */
async function firingsViaApi(page: Page): Promise<Firing[]> {
  const response = await page.request.get('/v1/client/schedules');
  const body = (await response.json()) as { data: { items: { name: string; recent: Firing[] }[] } };
  return body.data.items.find((item) => item.name === SCHEDULE)!.recent;
}

test('a schedule: its next firings, a firing’s job, paused with a reason, resumed', async ({
  page,
  extensions,
}) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  if (!extensions) {
    // A service without schedules: no link, and the page (opened by its address) says so.
    await expect(nav.getByRole('link', { name: 'Jobs' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Schedules' })).toHaveCount(0);
    await page.goto('/schedules');
    await expect(page.getByTestId('no-schedules')).toBeVisible();
    return;
  }
  // Left paused whatever happens here: its jobs would land in the other specs' lists.
  try {
    await nav.getByRole('link', { name: 'Schedules' }).click();
    const card = page.locator(`[data-schedule="${SCHEDULE}"]`);
    const state = card.getByTestId('schedule-state');
    // Paused in the configuration: it waits for the test.
    await expect(state).toHaveAttribute('data-state', 'paused');
    await expect(card.getByTestId('schedule-when')).toContainText('Every 5 seconds');
    // The other fires once a year: nothing to read again soon (a timer set for it would fire
    // at once, and again: more than 2^31 - 1 ms).
    let reads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v1/client/schedules') reads += 1;
    });
    await page.waitForTimeout(2000);
    expect(reads).toBe(0);

    await card.getByRole('button', { name: 'Resume' }).click();
    await expect(page.getByText('Schedule resumed')).toBeVisible();
    await expect(state).toHaveAttribute('data-state', 'active');
    await expect(card.getByTestId('next-firing').first()).toContainText(/in 0:0\d · /);

    // A firing: its job linked, with its state, kept current without a reload.
    const firing = card
      .getByTestId('firing')
      .filter({ has: page.getByRole('link') })
      .first();
    await expect(firing).toBeVisible({ timeout: 15_000 });
    const jobId = await firing.getAttribute('data-job-id');
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    const fired = card.locator(`[data-job-id="${jobId}"]`);
    await expect(fired.getByRole('link')).toHaveAttribute('href', `/jobs/${jobId}`);
    await expect(fired.getByTestId('state-badge')).toHaveAttribute('data-state', 'completed');

    // From the keyboard: the dialog opens on its reason field, and Enter pauses.
    await card.getByRole('button', { name: 'Pause' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Pause ${SCHEDULE}?` });
    await expect(dialog.getByRole('textbox', { name: /Reason/ })).toBeFocused();
    await page.keyboard.type('e2e: maintenance window');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    const pausedAt = Date.now();
    await expect(state).toHaveAttribute('data-state', 'paused');
    await expect(card.getByTestId('paused-reason')).toHaveText('Paused: e2e: maintenance window');
    await expect(card.getByTestId('next-firing')).toHaveCount(0);

    // Audited with its firings, paused with a reason, in both themes.
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.reload();
      await expect(card.getByTestId('paused-reason')).toBeVisible();
      expect(await seriousViolations(page), `schedules, ${colorScheme}`).toEqual([]);
      if (colorScheme === 'light') await screenshot(page, 'schedules');
    }

    // A firing's link opens its job.
    const newest = card
      .getByTestId('firing')
      .filter({ has: page.getByRole('link') })
      .first();
    const newestId = await newest.getAttribute('data-job-id');
    await newest.getByRole('link').click();
    await expect(page).toHaveURL(`/jobs/${newestId}`);
    await page.goBack();

    // Paused: past a whole period (the audits above took part of it), no firing after the pause.
    await page.waitForTimeout(Math.max(0, pausedAt + 6000 - Date.now()));
    const late = (await firingsViaApi(page)).filter((f) => Date.parse(f.fire_at) > pausedAt);
    expect(late).toEqual([]);

    // Resumed: it fires again from its next firing on.
    await card.getByRole('button', { name: 'Resume' }).click();
    await expect(state).toHaveAttribute('data-state', 'active');
    await expect(card.getByTestId('paused-reason')).toHaveCount(0);
    await expect(card.getByTestId('next-firing').first()).toBeVisible();
  } finally {
    await page.request.post(`/v1/client/schedules/${SCHEDULE}/pause`, {
      data: { reason: 'left paused by e2e/schedules.spec.ts' },
    });
  }
});
