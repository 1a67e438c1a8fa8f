import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { expectState, fillBasics, screenshot, submitAndOpen, unique } from './helpers';

test('labels typed in the form show on the job page and in the table, and the table filters by them', async ({
  page,
  extensions,
}) => {
  await fillBasics(page, 'demo::hello:1');
  if (!extensions) {
    // A service without labels: the form has no such section (a label would be refused).
    await expect(page.getByRole('button', { name: 'Add label' })).toHaveCount(0);
    return;
  }
  const ticket = unique('OPS');
  await page.getByRole('button', { name: 'Add label' }).click();
  await page.getByRole('textbox', { name: 'Label 1 key' }).fill('ticket');
  await page.getByRole('textbox', { name: 'Label 1 value' }).fill(ticket);
  await page.getByRole('button', { name: 'Add label' }).click();
  await page.getByRole('textbox', { name: 'Label 2 key' }).fill('bad key');
  await page.getByRole('button', { name: 'Submit job' }).click();
  await expect(page.getByText(/is not a valid label key/).first()).toBeVisible();
  await page.getByRole('textbox', { name: 'Label 2 key' }).fill('team');
  await page.getByRole('textbox', { name: 'Label 2 value' }).fill('data');
  const id = await submitAndOpen(page);
  await expectState(page, 'completed');
  const onPage = page.getByTestId('job-labels');
  await expect(onPage.getByTestId('job-label')).toHaveText([`ticket=${ticket}`, 'team=data']);

  // Another job of the team, without the ticket: the filter by ticket leaves it out.
  await page.request.post('/v1/client/job', {
    data: { job_definition: 'demo::hello:1', job_queue: 'demo::default', labels: { team: 'data' } },
  });
  await page.goto('/jobs');
  const filter = page.getByRole('combobox', { name: 'Labels' });
  await filter.fill(`ticket=${ticket}`);
  await filter.press('Enter');
  await expect(page).toHaveURL(new RegExp(`label=ticket%3D${ticket}`));
  const table = page.getByRole('table', { name: 'Project jobs' });
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator(`[data-job-id="${id}"]`).getByTestId('job-label')).toHaveText([
    `ticket=${ticket}`,
    'team=data',
  ]);
  expect(await seriousViolations(page), 'jobs filtered by label').toEqual([]);
  await screenshot(page, 'jobs-labels');
  await page.reload();
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('job-count')).toHaveText('1 job matches');
});
