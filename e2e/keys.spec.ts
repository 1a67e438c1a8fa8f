import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { unique } from './helpers';

test('an admin creates a viewer key, copies it from the one place it is shown, and revokes it', async ({
  page,
  context,
  extensions,
}) => {
  test.skip(!extensions, 'a spec-only service manages no keys');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const label = unique('dashboards');
  await page.goto('/keys');
  await page.getByRole('button', { name: 'Create a key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await dialog.getByRole('textbox', { name: 'Label' }).fill(label);
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: /^viewer/ }).click();
  await dialog.getByRole('textbox', { name: /Expires after/ }).fill('7');
  expect(await seriousViolations(page, '[role="dialog"]'), 'the form').toEqual([]);
  await dialog.getByRole('button', { name: 'Create key' }).click();

  const key = (await dialog.getByTestId('created-key').textContent())!;
  expect(key.length).toBeGreaterThan(20);
  expect(await seriousViolations(page, '[role="dialog"]'), 'the key shown once').toEqual([]);
  await dialog.getByRole('button', { name: 'Copy key' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  // Neither Escape nor a click beside it loses the key: only Done.
  await page.keyboard.press('Escape');
  await page.mouse.click(5, 5);
  await expect(dialog.getByTestId('created-key')).toBeVisible();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toHaveCount(0);
  const stored = await page.evaluate(() =>
    JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]),
  );
  expect(stored).not.toContain(key);

  // The key works, as a viewer: it reads, and may not submit.
  const asKey = { Authorization: `Bearer ${key}` };
  const whoami = await page.request.get('/v1/client/whoami', { headers: asKey });
  expect(((await whoami.json()) as { data: { role: string } }).data.role).toBe('viewer');
  const submit = await page.request.post('/v1/client/job', {
    headers: asKey,
    data: { job_definition: 'demo::hello:1', job_queue: 'demo::default', name: 'as-viewer' },
  });
  expect(submit.status()).toBe(403);

  const row = page.getByTestId('api-key').filter({ hasText: label });
  await expect(row).toContainText('viewer');
  await expect(row).toContainText('active');
  expect(await seriousViolations(page), 'the keys table').toEqual([]);
  await row.getByRole('button', { name: `Revoke ${label}` }).click();
  const confirm = page.getByRole('dialog', { name: `Revoke ${label}?` });
  await expect(confirm.getByText('This console may lose its access')).toHaveCount(0);
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(row).toContainText('revoked');
  await expect(row.getByRole('button', { name: /Revoke/ })).toHaveCount(0);
  expect((await page.request.get('/v1/client/whoami', { headers: asKey })).status()).toBe(401);
});

test("revoking the console's own key is warned about first, and can be called off", async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'a spec-only service manages no keys');
  await page.goto('/keys');
  const own = page.getByTestId('api-key').filter({ hasText: 'this console' });
  await own.getByRole('button', { name: /^Revoke / }).click();
  const confirm = page.getByRole('dialog', { name: /^Revoke .*\?$/ });
  await expect(confirm.getByText('This console may lose its access')).toBeVisible();
  expect(await seriousViolations(page, '[role="dialog"]'), 'the warning').toEqual([]);
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(own).toContainText('active');
});
