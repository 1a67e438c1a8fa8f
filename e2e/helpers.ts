import { expect, type Page } from '@playwright/test';

export async function fillBasics(page: Page, definition: string, queue = 'demo::default') {
  await page.goto('/submit');
  await page.getByRole('combobox', { name: 'Job definition' }).fill(definition);
  await page.getByRole('combobox', { name: 'Job queue' }).fill(queue);
}

export async function addParameter(page: Page, key: string, value: string) {
  const index = (await page.getByRole('textbox', { name: /^Parameter \d+ key$/ }).count()) + 1;
  await page.getByRole('button', { name: 'Add parameter' }).click();
  await page.getByRole('textbox', { name: `Parameter ${index} key` }).fill(key);
  await page.getByRole('textbox', { name: `Parameter ${index} value` }).fill(value);
}

/** Submits and waits for the job page; returns the new job's id. */
export async function submitAndOpen(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Submit job' }).click();
  await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
  return decodeURIComponent(page.url().split('/jobs/')[1]!);
}

export async function expectState(page: Page, state: string, timeout = 30_000) {
  await expect(page.getByTestId('state-badge').first()).toHaveAttribute('data-state', state, {
    timeout,
  });
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `docs/screenshots/${name}.png`, fullPage: true });
}
