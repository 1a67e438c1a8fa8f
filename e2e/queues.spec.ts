import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { expectState, screenshot, submitViaApi } from './helpers';

const QUEUE = 'demo::gate';

test('an operator pauses a queue from the overview, its job says why it waits, resumed it runs; max running changed and set back', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'a service without the queue view has no queue controls');
  await page.goto('/');
  const card = page.getByTestId('queue-card').and(page.locator(`[data-queue="${QUEUE}"]`));
  await card.getByRole('button', { name: 'Pause' }).click();
  const pause = page.getByRole('dialog', { name: `Pause ${QUEUE}?` });
  await pause.getByRole('textbox', { name: /Reason/ }).fill('e2e: release 4.2');
  expect(await seriousViolations(page, '[role="dialog"]'), 'pause dialog').toEqual([]);
  await pause.getByRole('button', { name: 'Pause queue' }).click();
  await expect(card.getByTestId('queue-paused-reason')).toHaveText('Paused: e2e: release 4.2');
  await expect(card.getByTestId('paused-badge')).toBeVisible();
  await expect(card.getByTestId('queue-changed')).toHaveText(/^Changed \S+ ago by key:key_\w+$/);

  const id = await submitViaApi(page, { job_definition: 'demo::sleep:1', job_queue: QUEUE });
  await page.goto(`/jobs/${id}`);
  await expectState(page, 'runnable');
  await expect(page.getByText(`queue ${QUEUE} is paused (e2e: release 4.2)`)).toBeVisible();

  await page.goto('/');
  await card.getByRole('button', { name: 'Resume' }).click();
  await expect(card.getByTestId('paused-badge')).toHaveCount(0);
  await expect(card.getByTestId('slots')).toHaveText('1 of 1 slots in use', { timeout: 30_000 });

  await card.getByRole('button', { name: `Change max running of ${QUEUE}` }).click();
  const limit = page.getByRole('dialog', { name: `Max running of ${QUEUE}` });
  await limit.getByRole('textbox', { name: 'Jobs running at once' }).fill('3');
  expect(await seriousViolations(page, '[role="dialog"]'), 'max running dialog').toEqual([]);
  await limit.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByTestId('slots')).toHaveText('1 of 3 slots in use (configured: 1)');
  expect(await seriousViolations(page), 'overview with a changed queue').toEqual([]);
  await screenshot(page, 'overview-queue-controls');
  await card.getByRole('button', { name: `Change max running of ${QUEUE}` }).click();
  await limit.getByRole('button', { name: 'Back to configured (1)' }).click();
  await expect(card.getByTestId('slots')).toHaveText('1 of 1 slots in use');

  await page.goto(`/jobs/${id}`);
  await expectState(page, 'running');
  await page.request.post(`/v1/client/job/${id}/cancel`);
  await expectState(page, 'cancelled');
});

test('each queue card says how long the queue keeps its finished jobs', async ({
  page,
  extensions,
}) => {
  await page.goto('/');
  if (!extensions) {
    // A service without the queue view: no card, and nothing said of retention.
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await expect(page.getByTestId('queue-retention')).toHaveCount(0);
    return;
  }
  const retention = (queue: string) =>
    page
      .getByTestId('queue-card')
      .and(page.locator(`[data-queue="${queue}"]`))
      .getByTestId('queue-retention');
  // The default, and a queue configured to keep them forever.
  await expect(retention('demo::default')).toHaveText('Finished jobs kept 14 days');
  await expect(retention('demo::held')).toHaveText('Finished jobs kept forever');
  expect(await seriousViolations(page), 'overview with retention').toEqual([]);
});

test('each queue card says its share, and its quota where one is set; the Hosts page the last day', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'a service without the shares extension says nothing of shares');
  await page.goto('/');
  const card = (queue: string) =>
    page.getByTestId('queue-card').and(page.locator(`[data-queue="${queue}"]`));
  const share =
    /^Share: (holds \d+ % of (CPUs|memory|GPUs|slots); share \d+ % \(weight 1\)|no work now \(weight 1\))$/;
  await expect(card('demo::default').getByTestId('queue-share')).toHaveText(share);
  await expect(
    card('demo::default').getByRole('progressbar', { name: /^demo::default Share: / }),
  ).toHaveAttribute('aria-valuenow', /^\d+(\.\d+)?$/);
  // No quota on demo::default nor on its project: nothing said of one.
  await expect(card('demo::default').getByTestId('queue-quota')).toHaveCount(0);
  // demo::held has a quota of 2 jobs (e2e/jobdeck.e2e.yaml); paused, it holds none of them.
  await expect(card('demo::held').getByTestId('queue-quota')).toHaveText(
    /^queue quota: holds 0 of 2 jobs$/,
  );
  await expect(
    card('demo::held').getByRole('progressbar', { name: 'queue quota: holds 0 of 2 jobs' }),
  ).toHaveAttribute('aria-valuenow', '0');
  expect(await seriousViolations(page), 'overview with shares and a quota').toEqual([]);

  await page.goto('/hosts');
  const demo = page.getByTestId('share').filter({ hasText: 'demo' });
  await expect(demo.getByTestId('share-last-day')).toHaveText(
    /^Last day: at most \d+ % of a capacity held; the busiest hour averaged \d+ %$/,
  );
  await expect(demo.getByTestId('share-day-chart')).toBeVisible();
  expect(await seriousViolations(page), 'the Hosts page with the last day').toEqual([]);
});
