// A team's console: a person signs in through a real OpenID Provider's own login page in
// Chromium, or with a local user's password, and acts with their role.
import { chromium, type Browser } from '@playwright/test';
import { addUser } from '../test/support/console-session';
import { startServiceWithProvider, type ServiceWithProvider } from '../test/support/oidc-service';
import { seriousViolations } from './axe';
import { chromiumLaunchOptions } from './chromium';
import { expect, test } from './fixtures';

const PASSWORD = 'a long enough password';
let started: ServiceWithProvider | undefined;
let browser: Browser | undefined;
let consoleUrl = '';

test.beforeAll(async ({ extensions }) => {
  if (!extensions) return;
  test.setTimeout(120_000);
  started = await startServiceWithProvider();
  consoleUrl = started.consoleUrl;
  await addUser(started.service, 'vic@example.test', PASSWORD, { project: 't', role: 'viewer' });
  browser = await chromium.launch(chromiumLaunchOptions);
});

test.afterAll(async () => {
  await browser?.close();
  await started?.stop();
});

test('signs in at the identity provider’s own pages and comes back, an admin by group', async ({
  extensions,
}) => {
  test.skip(!extensions, 'a spec-only service has no console sign-in');
  const page = await (await browser!.newContext()).newPage();
  await page.goto(`${consoleUrl}/jobs`);
  await expect(page).toHaveURL(/\/sign-in\?return_to=%2Fjobs/);
  expect(await seriousViolations(page), 'the sign-in page').toEqual([]);
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();

  // oidc-provider's development pages: a login form, then consent.
  await page.locator('input[name="login"]').fill('alice@example.test');
  await page.locator('input[name="password"]').fill('any password: the test provider checks none');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click();

  await expect(page).toHaveURL(`${consoleUrl}/jobs`);
  await expect(page.getByRole('button', { name: 'Alice Example' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Members' })).toBeVisible();
  const stored = await page.evaluate(() =>
    JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]),
  );
  // The session cookie is HttpOnly: no script of the page reads it.
  expect(stored).not.toContain('jobdeck_session');
});

test('comes back from a refused sign-in at the provider still going where it was going', async ({
  extensions,
}) => {
  test.skip(!extensions, 'a spec-only service has no console sign-in');
  const page = await (await browser!.newContext()).newPage();
  await page.goto(`${consoleUrl}/jobs?state=failed`);
  await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
  await page.locator('a[href$="/abort"]').click(); // the provider's Cancel

  await expect(page).toHaveURL(/\/sign-in\?error=.*&return_to=%2Fjobs%3Fstate%3Dfailed$/);
  await expect(page.getByRole('alert')).toContainText(
    'The identity provider did not sign you in (access_denied).',
  );
  await expect(page.getByRole('link', { name: 'Sign in with Test IdP' })).toHaveAttribute(
    'href',
    '/v1/auth/oidc/start?return_to=%2Fjobs%3Fstate%3Dfailed',
  );
  await page.getByRole('textbox', { name: 'E-mail' }).fill('vic@example.test');
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${consoleUrl}/jobs?state=failed`);
});

test('a viewer signs in with a password, reads but cannot submit, and signs out', async ({
  extensions,
}) => {
  test.skip(!extensions, 'a spec-only service has no console sign-in');
  const page = await (await browser!.newContext()).newPage();
  await page.goto(`${consoleUrl}/sign-in`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill('vic@example.test');
  await page.getByRole('textbox', { name: 'Password' }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('email or password: not recognised');
  await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  await expect(page.getByRole('button', { name: 'vic@example.test' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Jobs', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Submit', exact: true })).toHaveCount(0);
  expect(await seriousViolations(page), 'a viewer’s console').toEqual([]);

  await page.getByRole('button', { name: 'vic@example.test' }).click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto(`${consoleUrl}/jobs`);
  await expect(page).toHaveURL(/\/sign-in/);
});
