import { createHash, randomBytes } from 'node:crypto';
import { expect, test } from './fixtures';
import {
  addParameter,
  confirmCancel,
  expectState,
  fillBasics,
  openCancelDialog,
  submitAndOpen,
  watchCspViolations,
} from './helpers';

test('the console works under its CSP: no violation while submitting and watching a job', async ({
  page,
  extensions,
}) => {
  const violations = await watchCspViolations(page);

  const response = await page.goto('/submit');
  const headers = response!.headers();
  const policy = headers['content-security-policy'] ?? '';
  expect(policy).toMatch(/script-src 'self';/);
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');

  await fillBasics(page, 'demo::shell:1');
  await addParameter(page, 'script', 'echo under-csp');
  const id = await submitAndOpen(page);
  await expectState(page, 'completed');
  if (extensions) await expect(page.getByTestId('log-line')).toHaveText(['under-csp']);
  // The overview and the live jobs table (event stream, virtualized table) under the policy too.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.goto('/jobs');
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
  // Mantine writes <style> elements for the theme and on a colour-scheme switch: all need the nonce.
  await page.goto('/settings');
  await page.getByText('Dark', { exact: true }).click();
  await page.goto(`/jobs/${id}`);
  await expectState(page, 'completed');

  const api = await page.request.get(`/v1/client/job/${id}`);
  expect(api.headers()['cache-control']).toBe('no-store');

  expect(await violations()).toEqual([]);

  // A dialog: its scroll lock writes a <style> of its own, which needs the nonce too, and the
  // page under it must not scroll.
  await page.goto('/submit');
  await page.getByRole('button', { name: 'Import JSON' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.body).overflow))
    .toBe('hidden');
  expect(await violations()).toEqual([]);
});

test('a page of another site cannot cancel a job through the console proxy', async ({ page }) => {
  await fillBasics(page, 'demo::sleep:1');
  const id = await submitAndOpen(page);
  await expectState(page, 'running');
  // What a cross-site form post or fetch sends: the browser adds Origin and Sec-Fetch-Site.
  const refused = await page.request.post(`/v1/client/job/${id}/cancel`, {
    headers: { origin: 'http://attacker.example', 'sec-fetch-site': 'cross-site' },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).ok).toBe(false);
  await expectState(page, 'running');
  await confirmCancel(await openCancelDialog(page));
  await expectState(page, 'cancelled');
});

test('canaries typed as sensitive values leave no trace in storage, URLs or the DOM', async ({
  page,
}) => {
  const canaries = [0, 1, 2].map((i) => `e2e-canary-${i}-${randomBytes(8).toString('hex')}`);
  const forms = canaries.flatMap((c) => [
    c,
    Buffer.from(c).toString('base64'),
    Buffer.from(c).toString('base64url'),
    Buffer.from(c).toString('hex'),
  ]);
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));

  await fillBasics(page, 'demo::shell:1');
  // The job proves it received each value by its hash, as the service tests do.
  const checks = canaries.map(
    (c, i) =>
      `test "$(printf %s "$C${i}" | sha256sum | cut -d' ' -f1)" = ${createHash('sha256').update(c).digest('hex')}`,
  );
  await addParameter(page, 'script', checks.join(' && '));
  for (const [i, canary] of canaries.entries()) {
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByRole('textbox', { name: `Variable ${i + 1} name` }).fill(`C${i}`);
    await page
      .getByRole('switch', { name: `Variable ${i + 1} is sensitive` })
      .check({ force: true });
    await page.getByLabel(`Variable ${i + 1} value`).fill(canary);
  }
  const id = await submitAndOpen(page);
  await expectState(page, 'completed');
  await page.getByRole('tab', { name: 'Logs' }).click();
  await page.goto('/jobs');
  await page.goto(`/jobs/${id}`);
  await expectState(page, 'completed');

  const places = {
    storage: await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    ),
    dom: await page.content(),
    urls: [...urls, page.url()].join('\n'),
    history: await page.evaluate(() => JSON.stringify(history.state)),
  };
  const hits = Object.entries(places).flatMap(([where, text]) =>
    forms.filter((form) => text.includes(form)).map((form) => `${where}: ${form}`),
  );
  expect(hits).toEqual([]);
  // The search can fail: the variable names are there.
  expect(places.storage).toContain('C2');
});
