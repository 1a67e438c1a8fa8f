import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedWebhook, WebhookDelivery } from '../../contract';
import { startService, type TestService } from '../support/service';
import { WebhookReceiver } from '../support/webhook-receiver';

const onPostgres = process.env.JOBDECK_TEST_STORE === 'postgres';

/** The default `webhooks.allowed_hosts` (empty): public addresses only, however written. */
describe('webhook addresses, with no hosts listed', () => {
  let service: TestService;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.listen();
    service = await startService({ webhooks: { timeout_seconds: 1, max_attempts: 1 } });
  });
  afterAll(async () => {
    await service?.stop();
    await receiver.close();
  });

  it('refuse at creation an internal IPv4 address carried in an IPv6 one, naming url and why', async () => {
    const cases: [string, string][] = [
      ['http://[::127.0.0.1]/', 'an IPv4-compatible address (deprecated) of 127.0.0.1'],
      [
        'http://[::ffff:0:127.0.0.1]/',
        'an IPv4-translated address of 127.0.0.1, a loopback address',
      ],
      [
        'http://[64:ff9b::a9fe:a9fe]/',
        'a NAT64 address of 169.254.169.254, a link-local address (where cloud metadata answers)',
      ],
      ['http://[2002:7f00:1::1]/', 'a 6to4 address of 127.0.0.1, a loopback address'],
      ['http://[fec0::1]/', 'a site-local address'],
      ['http://[::ffff:10.0.0.1]/', 'an IPv4-mapped address of 10.0.0.1, a private address'],
    ];
    for (const [url, why] of cases) {
      const answer = await service.request('POST', '/v1/client/webhooks', {
        url,
        states: ['failed'],
      });
      expect(answer.status, url).toBe(400);
      expect(answer.body, url).toEqual({
        ok: false,
        message: `url: host "${new URL(url).hostname}" is ${why}: list the host in webhooks.allowed_hosts to allow it`,
      });
    }
    const changed = await service.request('POST', '/v1/client/webhooks', {
      url: 'https://hooks.example.com/jobdeck',
      states: ['failed'],
    });
    expect(changed.status).toBe(201);
    const id = (changed.body.data as CreatedWebhook).id;
    const update = await service.request('PATCH', `/v1/client/webhooks/${id}`, {
      url: 'http://[::ffff:0:a9fe:a9fe]/',
    });
    expect(update.status).toBe(400);
    expect(update.body.message).toContain('url: host "[::ffff:0:a9fe:a9fe]" is an IPv4-translated');
  });

  // A webhook stored before the rule (an older release) is refused as it is sent.
  it.skipIf(onPostgres)('refuse at send time a stored URL the rules refuse', async () => {
    const created = await service.request('POST', '/v1/client/webhooks', {
      url: 'https://hooks.example.com/other',
      states: ['failed'],
    });
    const id = (created.body.data as CreatedWebhook).id;
    const port = new URL(receiver.url).port;
    const db = new SqliteDatabase(join(service.dataDir, 'jobdeck.sqlite'));
    const refusedTo = async (url: string) => {
      db.prepare('UPDATE webhooks SET url = ? WHERE id = ?').run(url, id);
      const test = await service.request('POST', `/v1/client/webhooks/${id}/test`);
      expect(test.status).toBe(202);
      const delivery = (test.body.data as WebhookDelivery).id;
      const deadline = Date.now() + 20_000;
      for (;;) {
        const log = await service.request('GET', `/v1/client/webhooks/${id}/deliveries`);
        const item = (log.body.data as { items: WebhookDelivery[] }).items.find(
          (d) => d.id === delivery,
        );
        if (item?.state === 'failed') return item.error;
        if (Date.now() > deadline) throw new Error(`delivery: ${JSON.stringify(item)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    try {
      expect(await refusedTo(`http://[::ffff:0:127.0.0.1]:${port}/hook`)).toBe(
        'url: host "[::ffff:0:7f00:1]" is an IPv4-translated address of 127.0.0.1, a loopback address: list the host in webhooks.allowed_hosts to allow it',
      );
      expect(await refusedTo(`http:///127.0.0.1:${port}/hook`)).toBe(
        'url: must name its host right after the scheme and two slashes, like https://hooks.example.com/jobdeck',
      );
    } finally {
      db.close();
    }
    expect(receiver.received).toHaveLength(0);
  });
});
