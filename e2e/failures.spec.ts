import { auditBothThemes } from './axe';
import { expect, test } from './fixtures';
import { submitViaApi, unique, waitForStateViaApi } from './helpers';

test('failures grouped by cause link to their jobs and are retried by the service', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'Failure groups and bulk resubmit are extensions');
  // A label of this run's own: the page is of its two jobs, whatever else failed on the service.
  const run = unique('upstream');
  const ids: string[] = [];
  for (let index = 0; index < 2; index++) {
    ids.push(
      await submitViaApi(page, {
        labels: { run },
        job_definition: 'demo::shell:1',
        container_cmd_parameter: { script: 'echo "error: upstream returned 503" >&2; exit 1' },
      }),
    );
  }
  for (const id of ids) await waitForStateViaApi(page, id, 'failed');

  await page.goto(`/failures?label=run%3D${run}`);
  const group = page.getByTestId('failure-group');
  await expect(group).toHaveCount(1);
  await expect(group).toHaveAccessibleName('2 jobs · exit 1 · error: upstream returned 503');
  await auditBothThemes(page, 'failures page', 'main');

  await group.getByRole('button', { name: /^Retry all/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Retry every job of this group?' });
  await expect(dialog.getByText(/secrets are kept in the service/)).toBeVisible();
  await auditBothThemes(page, 'retry dialog', '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Retry 2 jobs' }).click();
  await expect(page.getByTestId('bulk-progress')).toHaveText(
    'Done: 2 of 2 jobs: 2 accepted, 0 refused.',
    { timeout: 30_000 },
  );
  await page.getByRole('button', { name: 'Done' }).click();

  // The new runs fail as the first ones did (the same script) and join the group, seen once the
  // page reads it again; its link then shows exactly its four jobs. (The link clicked while the
  // page showed two or four, whichever its last read saw, raced the new runs.)
  await expect(async () => {
    await page.reload();
    await expect(group).toHaveAccessibleName('4 jobs · exit 1 · error: upstream returned 503', {
      timeout: 2_000,
    });
  }).toPass({ timeout: 60_000 });
  await group.getByRole('link', { name: '4 jobs' }).click();
  await expect(page).toHaveURL(/\/jobs\?id=/);
  await expect(page.getByTestId('job-count')).toHaveText('4 jobs match');
});
