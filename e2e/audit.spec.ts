import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import {
  confirmCancel,
  expectState,
  openCancelDialog,
  screenshot,
  submitViaApi,
  unique,
  waitForStateViaApi,
} from './helpers';

test('a cancel made in the console is in the audit trail and on the job page, with who made it', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'a spec-only service has no audit trail to show');
  const name = unique('audited');
  const id = await submitViaApi(page, {
    job_definition: 'demo::sleep:1',
    name,
    container_cmd_parameter: { seconds: '60' },
  });
  await waitForStateViaApi(page, id, 'running');
  await page.goto(`/jobs/${id}`);
  await confirmCancel(await openCancelDialog(page));
  await expectState(page, 'cancelled');
  // The console's key is the project's admin: its actor, as whoami names it.
  const whoami = (await (await page.request.get('/v1/client/whoami')).json()) as {
    data: { actor: string };
  };
  const actor = whoami.data.actor;
  await expect(page.getByTestId('submitted-by')).toHaveText(`Submitted by ${actor}`);
  await expect(page.getByTestId('cancel-requested-by')).toContainText(
    `Cancel requested by ${actor}`,
  );
  await expect(page.getByTestId('cancel-requested-by')).toContainText('ago');
  expect(await seriousViolations(page), 'the job page with who acted').toEqual([]);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }).click();
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
  await page.getByPlaceholder('Every action').fill('job.cancel');
  await page.getByRole('option', { name: 'job.cancel' }).click();
  // The trail names the job by its short id, as the console does everywhere.
  const row = page.getByTestId('audit-event').filter({ hasText: `…${id.slice(-8)}` });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('job.cancel');
  await expect(row).toContainText(actor);
  await expect(page.getByTestId('audit-event').filter({ hasText: 'job.submit' })).toHaveCount(0);
  expect(await seriousViolations(page), 'the audit page').toEqual([]);
  await screenshot(page, 'audit');
});
