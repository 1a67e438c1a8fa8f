import { auditBothThemes } from './axe';
import { expect, test } from './fixtures';
import { expectState, submitAndOpen } from './helpers';

test('the submit form offers what the service declares and fills the command from a definition', async ({
  page,
  extensions,
}) => {
  const catalogReads: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === '/v1/client/definitions') catalogReads.push(path);
  });
  await page.goto('/submit');
  // The header says whom the console acts for, where the service says it.
  await expect(page.getByTestId('acting-for')).toHaveCount(extensions ? 1 : 0);
  if (extensions)
    await expect(page.getByTestId('acting-for')).toHaveText(
      /^project demo · admin · Jobdeck \d+\.\d+\.\d+$/,
    );
  const definition = page.getByRole('combobox', { name: 'Job definition' });
  await definition.click();
  await definition.fill('slee');
  const declared = page.getByRole('option', { name: 'demo::sleep:1' });
  if (!extensions) {
    // A service that does not declare its definitions: free text, and nothing asked beyond the spec.
    await expect(declared).toHaveCount(0);
    await expect(page.getByText('Declared by the service')).toHaveCount(0);
    expect(catalogReads).toEqual([]);
    return;
  }
  await expect(page.getByText('Declared by the service').first()).toBeVisible();
  await declared.click();
  await expect(definition).toHaveValue('demo::sleep:1');
  await expect(page.getByRole('combobox', { name: 'Command word 1' })).toHaveValue('sleep');
  await expect(page.getByRole('combobox', { name: 'Command word 2' })).toHaveValue(
    'Param::seconds',
  );
  await expect(page.getByRole('textbox', { name: 'Parameter 1 key' })).toHaveValue('seconds');
  const seconds = page.getByRole('textbox', { name: 'Parameter 1 value' });
  await expect(seconds).toHaveValue('60');

  // Words typed by hand are never replaced by a later pick.
  await seconds.fill('1');
  const queue = page.getByRole('combobox', { name: 'Job queue' });
  await queue.click();
  await page.getByRole('option', { name: 'demo::default' }).click();
  await expect(queue).toHaveValue('demo::default');
  await definition.fill('hell');
  await page.getByRole('option', { name: 'demo::hello:1' }).click();
  await expect(page.getByRole('combobox', { name: 'Command word 1' })).toHaveValue('sleep');
  await expect(seconds).toHaveValue('1');

  await definition.fill('slee');
  await page.getByRole('option', { name: 'demo::sleep:1' }).click();
  await expect(page.getByTestId('command-preview')).toContainText('["sleep","1"]');
  await submitAndOpen(page);
  await expectState(page, 'completed');
  expect(catalogReads.length).toBeGreaterThan(0);
});

test('a definition typed whole loads as a pick does, and the form shows what it runs', async ({
  page,
  extensions,
}) => {
  await page.goto('/submit');
  const definition = page.getByRole('combobox', { name: 'Job definition' });
  await definition.fill('demo::sleep:1');
  await page.keyboard.press('Escape');
  const details = page.getByTestId('definition-details');
  if (!extensions) {
    // A service that does not declare its definitions: the form as it was, nothing filled.
    await page.waitForTimeout(1000);
    await expect(details).toHaveCount(0);
    await expect(page.getByRole('combobox', { name: 'Command word 1' })).toHaveCount(0);
    return;
  }
  await expect(page.getByRole('combobox', { name: 'Command word 1' })).toHaveValue('sleep');
  await expect(page.getByRole('combobox', { name: 'Command word 2' })).toHaveValue(
    'Param::seconds',
  );
  await expect(page.getByRole('textbox', { name: 'Parameter 1 value' })).toHaveValue('60');
  await expect(details).toContainText('jobdeck/busybox:local');
  await expect(details).toContainText('Stop grace1 s');
  await expect(details.getByRole('table', { name: 'Declared parameters' })).toContainText(
    'seconds60',
  );
  await auditBothThemes(page, 'submit form with its definition', 'form');
  // The service matches the reference exactly: another case names no definition.
  await definition.fill('demo::Sleep:1');
  await expect(details).toHaveCount(0);
});
