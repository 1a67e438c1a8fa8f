import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { unique } from './helpers';

test('a view of the jobs table saved for the project opens again from the Views menu', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'a service without the job list has no table views');
  const name = unique('failed-default');
  await page.goto('/jobs?state=failed&queue=demo::default&sort=-duration');
  await page.getByRole('button', { name: 'Views' }).click();
  await page.getByRole('menuitem', { name: 'Save or manage views…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save this view' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  expect(await seriousViolations(page, '[role="dialog"]'), 'save view dialog').toEqual([]);
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(dialog).toBeHidden();

  // Anywhere else, with no filter: the saved view brings its filters and sort back.
  await page.goto('/jobs');
  await page.getByRole('button', { name: 'Views' }).click();
  await page.getByRole('menuitem', { name }).click();
  await expect(page).toHaveURL(/\/jobs\?/);
  const url = new URL(page.url());
  expect(url.searchParams.getAll('state')).toEqual(['failed']);
  expect(url.searchParams.get('queue')).toBe('demo::default');
  expect(url.searchParams.get('sort')).toBe('-duration');
  await expect(page.getByRole('combobox', { name: 'Queue' })).toHaveValue('demo::default');

  // Shared: the service has it, so another browser would list it too; then deleted.
  const listed = (await (await page.request.get('/v1/client/views')).json()) as {
    data: { items: { name: string }[] };
  };
  expect(listed.data.items.map((view) => view.name)).toContain(name);
  await page.getByRole('button', { name: 'Views' }).click();
  await page.getByRole('menuitem', { name: 'Save or manage views…' }).click();
  await dialog.getByRole('button', { name: `Delete view ${name}` }).click();
  await expect(dialog.getByRole('button', { name: `Delete view ${name}` })).toHaveCount(0);
});
