import { WebhookReceiver, verify } from '../test/support/webhook-receiver';
import { seriousViolations } from './axe';
import { expect, test } from './fixtures';
import { screenshot, submitViaApi, waitForStateViaApi } from './helpers';

test('a webhook added in the console is told of a failed job, signed, and its delivery log shows it', async ({
  page,
  extensions,
}) => {
  test.skip(!extensions, 'a spec-only service has no webhooks');
  const receiver = await new WebhookReceiver().listen();
  try {
    await page.goto('/webhooks');
    await page.getByRole('button', { name: 'Add a webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook' });
    await dialog.getByRole('textbox', { name: 'URL' }).fill(receiver.url);
    await dialog.getByRole('textbox', { name: 'Description' }).fill('on-call');
    expect(await seriousViolations(page), 'the form').toEqual([]);
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    const secret = (await dialog.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    expect(await seriousViolations(page), 'the secret shown once').toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    // Shown once, kept nowhere in the browser.
    const stored = await page.evaluate(() =>
      JSON.stringify([{ ...localStorage }, { ...sessionStorage }]),
    );
    expect(stored).not.toContain(secret.slice('whsec_'.length));

    const card = page.getByRole('region', { name: `Webhook ${receiver.url}` });
    await expect(card.getByText('on-call')).toBeVisible();
    await card.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    expect(receiver.received[0]!.event.type).toBe('webhook.test');
    expect(() => verify(secret, receiver.received[0]!)).not.toThrow();

    const id = await submitViaApi(page, {
      job_definition: 'demo::shell:1',
      name: 'webhook-fails',
      container_cmd_parameter: { script: 'exit 7' },
    });
    await waitForStateViaApi(page, id, 'failed');
    await expect.poll(() => receiver.about(id).length, { timeout: 15_000 }).toBe(1);
    const failed = receiver.about(id)[0]!;
    expect(failed.event).toMatchObject({ type: 'job.failed', data: { job: { exit_code: 7 } } });
    expect(() => verify(secret, failed)).not.toThrow();

    const rows = card.getByTestId('delivery');
    await expect(rows).toHaveCount(2, { timeout: 15_000 });
    await expect(rows.first()).toContainText('job.failed');
    await expect(rows.first()).toContainText('delivered');
    await expect(rows.first()).toContainText('200');
    // The short id, as the jobs table shows it: the end of the UUIDv7, not its time.
    await expect(rows.first().getByRole('link', { name: `…${id.slice(-8)}` })).toBeVisible();
    await expect(rows.nth(1)).toContainText('webhook.test');
    expect(await seriousViolations(page), 'the delivery log').toEqual([]);
    await screenshot(page, 'webhooks');

    await card.getByRole('button', { name: 'Delete…' }).click();
    await card.getByRole('button', { name: 'Delete webhook and its log' }).click();
    await expect(card).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});
