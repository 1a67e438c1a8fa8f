import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { CreatedWebhook, WebhookDelivery } from '../../contract';
import { submit, waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';
import { WebhookReceiver } from '../support/webhook-receiver';

const DAY_MS = 86_400_000;
const onPostgres = process.env.JOBDECK_TEST_STORE === 'postgres';

/**
 * Webhooks after a long pause (extensions off for days, then on): the changes of the pause are
 * read then, and only those within webhooks.replay_max_age_hours (24 h by default) are sent.
 */
describe.skipIf(onPostgres)('webhooks after days switched off', () => {
  let service: TestService;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.listen();
    service = await startService({
      reconcile_interval_seconds: 1,
      webhooks: { allowed_hosts: ['127.0.0.1'] },
    });
  });
  afterAll(async () => {
    await service?.stop();
    await receiver.close();
  });

  async function restartWithExtensions(extensions: boolean): Promise<void> {
    const config = parse(readFileSync(service.configFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(service.configFile, stringify({ ...config, extensions }));
    await service.restart();
  }

  const completedJob = async () => {
    const id = await submit(service, { job_definition: 't::echo:1' });
    await waitForState(service, id, 'completed');
    return id;
  };

  it('send the changes of the pause within the bound, and count the older ones in the log', async () => {
    const created = await service.request('POST', '/v1/client/webhooks', {
      url: receiver.url,
      states: ['completed'],
    });
    expect(created.status, created.text).toBe(201);
    const hook = created.body.data as CreatedWebhook;

    await restartWithExtensions(false);
    const old = [await completedJob(), await completedJob(), await completedJob()];
    const recent = await completedJob();
    await service.stop();
    // Those three were done days ago, as far as the store knows.
    const db = new SqliteDatabase(join(service.dataDir, 'jobdeck.sqlite'));
    const aged = db
      .prepare(
        `UPDATE job_transitions SET at = at - ${3 * DAY_MS} WHERE job_id IN (${old.map(() => '?').join(',')})`,
      )
      .run(...old).changes;
    db.close();
    expect(aged).toBeGreaterThanOrEqual(old.length * 3);

    await restartWithExtensions(true);
    const after = await completedJob();
    await receiver.until(
      () => receiver.about(recent).length > 0 && receiver.about(after).length > 0,
      'the recent change and the new one',
    );
    const deadline = Date.now() + 30_000;
    let skipped: WebhookDelivery | undefined;
    while (!skipped && Date.now() < deadline) {
      const log = await service.request('GET', `/v1/client/webhooks/${hook.id}/deliveries`);
      const items = (log.body.data as { items: WebhookDelivery[] }).items;
      skipped = items.find((delivery) => delivery.event_type === 'webhook.skipped');
      if (!skipped) await new Promise((r) => setTimeout(r, 100));
    }
    expect(skipped).toMatchObject({
      job_id: null,
      state: 'failed',
      attempts: 0,
      response_status: null,
      next_attempt_at: null,
    });
    expect(skipped!.error).toMatch(
      /^3 events from \d{4}-.+Z to \d{4}-.+Z not sent: older than 24 h \(webhooks\.replay_max_age_hours\) when read$/,
    );
    expect(skipped!.finished_at).not.toBeNull();
    for (const id of old) expect(receiver.about(id), id).toHaveLength(0);
    expect(receiver.about(recent)).toHaveLength(1);
    expect(service.output()).toContain(`"skipped":{"${hook.id}":3}`);
    expect(service.output()).toContain(
      'webhooks: events older than 24 h (webhooks.replay_max_age_hours) were not sent',
    );
  });
});
