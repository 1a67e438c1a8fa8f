import type { Page } from '@playwright/test';
import { auditBothThemes } from './axe';
import { expect, test } from './fixtures';
import { screenshot, submitViaApi, unique, waitForStateViaApi } from './helpers';

/** Until the service's trends count `runs` run times of the queue (its roller runs every 2 s). */
async function runsCounted(page: Page, queue: string, runs: number) {
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(`/v1/client/trends?queue=${queue}`)).json()) as {
            data: { run: { jobs: number } };
          }
        ).data.run.jobs,
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(runs);
}

const ESTIMATE =
  /estimated start in (less than a minute|about \d+ min), from the queue's run times of the last hour or two \(\d+ jobs\)/;

test.use({ viewport: { width: 1440, height: 900 } });

test("a waiting job says why it is not running and when it may start; the table says each job's reason", async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'The spec-only run has no estimate and no project table (see below).');
  const prefix = unique('why');
  // Runs for the estimate, one of them failed for the table's note.
  const ran = [
    await submitViaApi(page, { job_definition: 'demo::hello:1', name: `${prefix}-ok1` }),
    await submitViaApi(page, { job_definition: 'demo::hello:1', name: `${prefix}-ok2` }),
    await submitViaApi(page, {
      job_definition: 'demo::shell:1',
      name: `${prefix}-failed`,
      container_cmd_parameter: { script: 'exit 3' },
    }),
  ];
  await waitForStateViaApi(page, ran[0]!, 'completed');
  await waitForStateViaApi(page, ran[1]!, 'completed');
  await waitForStateViaApi(page, ran[2]!, 'failed');
  await runsCounted(page, 'demo::default', 3);

  // demo::default runs 4 at once: four sleepers take its slots, the fifth job waits.
  const sleepers: string[] = [];
  for (let i = 0; i < 4; i++) {
    sleepers.push(
      await submitViaApi(page, { job_definition: 'demo::sleep:1', name: `${prefix}-sleep${i}` }),
    );
  }
  for (const id of sleepers) await waitForStateViaApi(page, id, 'running');
  const waiting = await submitViaApi(page, {
    job_definition: 'demo::hello:1',
    name: `${prefix}-waiting`,
  });

  await page.goto(`/jobs/${waiting}`);
  const notice = page.getByTestId('system-note');
  await expect(notice).toContainText('Why it is not running yet');
  await expect(notice).toContainText(
    /waiting for a slot: \d+\S+ of \d+ waiting in queue demo::default/,
  );
  await expect(notice).toContainText(ESTIMATE);
  await screenshot(page, 'why-waiting-job');
  await auditBothThemes(page, 'waiting job page');

  await page.goto(`/jobs?name=${prefix}`);
  const table = page.getByRole('table', { name: 'Project jobs' });
  for (const name of ['Started', 'Ended', 'Reason / note']) {
    await expect(table.getByRole('columnheader', { name, exact: true })).toBeVisible();
  }
  const row = (id: string) => table.locator(`tbody tr[data-job-id="${id}"]`);
  await expect(row(waiting).getByTestId('note')).toContainText('waiting for a slot');
  await expect(row(waiting).getByTestId('started')).toHaveText('—');
  await expect(row(ran[2]!).getByTestId('note')).toHaveText('exited with code 3');
  await expect(row(ran[0]!).getByTestId('ended')).toHaveText(/ago$/);
  // Dense: a row without labels is name over definition and no more (it was 56 px high).
  const height = (await row(ran[0]!).boundingBox())!.height;
  expect(height).toBeLessThanOrEqual(48);
  // Usable at 1440×900: the note column is on screen without scrolling sideways.
  const note = (await row(ran[2]!).getByTestId('note').boundingBox())!;
  expect(note.x + note.width).toBeLessThanOrEqual(1440);
  await screenshot(page, 'why-jobs-table');
  await auditBothThemes(page, 'jobs table with notes');

  for (const id of [waiting, ...sleepers]) await page.request.post(`/v1/client/job/${id}/cancel`);
});

test('on a spec-only service the waiting sentence is the service note, without an estimate', async ({
  page,
  extensions,
}) => {
  test.skip(extensions, 'The full service is covered above.');
  const waiting = await submitViaApi(page, {
    job_definition: 'demo::hello:1',
    name: unique('why-held'),
    job_queue: 'demo::held',
  });
  await page.goto(`/jobs/${waiting}`);
  const notice = page.getByTestId('system-note');
  await expect(notice).toContainText('Why it is not running yet');
  await expect(notice).toContainText('waiting: queue demo::held is paused');
  await expect(notice).not.toContainText('estimated');
  await page.goto('/jobs');
  const table = page.getByRole('table', { name: 'Recent jobs' });
  await expect(table.getByRole('columnheader', { name: 'Reason / note' })).toBeVisible();
  await expect(table.getByTestId('note').first()).toContainText(
    'waiting: queue demo::held is paused',
  );
  await screenshot(page, 'why-recent-jobs', { degraded: true });
  await auditBothThemes(page, 'recent jobs with notes');
  await page.request.post(`/v1/client/job/${waiting}/cancel`);
});
