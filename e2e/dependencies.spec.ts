import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectState, screenshot, submitAndOpen, submitViaApi } from './helpers';

/** The requests for dependencies the page makes from now on. */
function dependencyRequests(page: Page): string[] {
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/dependencies')) requests.push(request.url());
  });
  return requests;
}

const dependencies = (page: Page) => page.getByRole('region', { name: 'Dependencies' });

test('a job submitted after another waits for it, then runs once it completed', async ({
  page,
  extensions,
}) => {
  const requests = dependencyRequests(page);
  // Long enough to see the other job wait while the form is filled on a loaded machine (5 s was
  // not, once, beside the other service's files), short enough for the suite.
  const first = await submitViaApi(page, {
    job_definition: 'demo::sleep:1',
    container_cmd_parameter: { seconds: '15' },
  });
  await page.goto(`/jobs/${first}`);
  const after = page.getByRole('link', { name: 'Submit a job after this one' });
  if (!extensions) {
    // A service without dependencies: no action, no section, no form section, no request.
    await expectState(page, 'running');
    await expect(after).toHaveCount(0);
    await expect(dependencies(page)).toHaveCount(0);
    await page.goto('/submit');
    await expect(page.getByRole('combobox', { name: 'Job definition' })).toBeVisible();
    await expect(page.getByRole('button', { name: /dependencies$/ })).toHaveCount(0);
    expect(requests).toEqual([]);
    return;
  }
  const firstName = (
    (await (await page.request.get(`/v1/client/job/${first}`)).json()) as { data: { name: string } }
  ).data.name;
  await after.click();
  await expect(page).toHaveURL(new RegExp(`/submit\\?after=${first}$`));
  await expect(page.getByRole('textbox', { name: 'Dependency 1 job id' })).toHaveValue(first);
  await page.getByRole('combobox', { name: 'Job definition' }).fill('demo::hello:1');
  await page.getByRole('combobox', { name: 'Job queue' }).fill('demo::default');
  await expect(page.getByTestId('payload-preview')).toContainText(`"job_id": "${first}"`);
  await page.keyboard.press('Escape'); // the queue's suggestions
  await page.getByRole('textbox', { name: 'Dependency 1 job id' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'submit-dependencies');
  const second = await submitAndOpen(page);

  // It waits, and says for what.
  await expectState(page, 'pending');
  await expect(page.getByTestId('system-note')).toContainText(first);
  const waitsFor = dependencies(page).getByRole('table', { name: 'Waits for' });
  await expect(waitsFor.getByRole('row')).toHaveCount(2);
  await expect(waitsFor.getByRole('link', { name: firstName })).toBeVisible();
  await expect(waitsFor).toContainText('to complete (afterok)');
  await expect(waitsFor.getByTestId('dependency-status')).toHaveText('waiting');
  await screenshot(page, 'job-dependencies');

  // The first job's page lists it, and follows it as it starts, runs and completes.
  await waitsFor.getByRole('link', { name: firstName }).click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${first}$`));
  const waitedOnBy = dependencies(page).getByRole('table', { name: 'Waited on by' });
  const row = waitedOnBy.locator(`[data-job-id="${second}"]`);
  await expect(row).toBeVisible();
  await expectState(page, 'completed');
  await expect(row.getByTestId('dependency-status')).toHaveText('met');
  await expect(row.getByTestId('state-badge')).toHaveAttribute('data-state', 'completed');

  await row.getByRole('link').click();
  await expectState(page, 'completed');
  await expect(waitsFor.getByTestId('dependency-status')).toHaveText('met');
});

test('a job whose dependency can no longer be met is cancelled, and a new one refused at its field', async ({
  page,
  extensions,
}) => {
  test.skip(
    !extensions,
    'a service without dependencies (the test above checks the page has none)',
  );
  // A paused queue never starts it: it ends only when cancelled.
  const first = await submitViaApi(page, {
    job_definition: 'demo::hello:1',
    job_queue: 'demo::held',
  });
  const second = await submitViaApi(page, {
    job_definition: 'demo::hello:1',
    depends_on: [{ job_id: first }],
  });
  await page.goto(`/jobs/${second}`);
  await expectState(page, 'pending');
  await page.request.post(`/v1/client/job/${first}/cancel`);
  await expectState(page, 'cancelled');
  await expect(page.getByTestId('system-note')).toContainText(first);
  await expect(
    dependencies(page).getByRole('table', { name: 'Waits for' }).getByTestId('dependency-status'),
  ).toHaveText('can no longer be met');

  // Waiting for it now is refused, at the row that names it.
  await page.goto(`/submit?after=${first}`);
  await page.getByRole('combobox', { name: 'Job definition' }).fill('demo::hello:1');
  await page.getByRole('combobox', { name: 'Job queue' }).fill('demo::default');
  // The typed definition loads a moment later (its command and parameters), as fillBasics waits for.
  await expect(page.getByRole('form', { name: 'Submit a job' })).toHaveAttribute(
    'data-definition-settled',
    'true',
  );
  await page.getByRole('button', { name: 'Submit job' }).click();
  const jobId = page.getByRole('textbox', { name: 'Dependency 1 job id' });
  await expect(jobId).toHaveAttribute('aria-invalid', 'true');
  await expect(jobId).toHaveAccessibleDescription(/ended cancelled/);
});
