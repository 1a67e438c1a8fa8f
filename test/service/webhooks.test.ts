import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedWebhook, Webhook, WebhookDelivery } from '../../contract';
import { submit, waitForState } from '../support/jobs';
import { sharedStoreSettings } from '../support/postgres';
import { startService, type TestService } from '../support/service';
import { WebhookReceiver, verify } from '../support/webhook-receiver';

/** Webhooks against real receiving HTTP servers: signed, filtered, retried, never lost. */
let service: TestService;
let otherKey: string;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  service = await startService({
    reconcile_interval_seconds: 1,
    // The receivers are on loopback, an internal address: listed, as an operator would.
    webhooks: {
      allowed_hosts: ['127.0.0.1'],
      timeout_seconds: 1,
      max_attempts: 4,
      first_retry_seconds: 0.3,
    },
  });
  otherKey = (await service.cli('keys', 'create', '--project', 'other', '--role', 'admin')).match(
    /jd_\S+/,
  )![0];
});
afterAll(async () => {
  await service.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(): Promise<WebhookReceiver> {
  const started = await new WebhookReceiver().listen();
  receivers.push(started);
  return started;
}

async function create(body: Record<string, unknown>, key?: string): Promise<CreatedWebhook> {
  const answer = await service.request('POST', '/v1/client/webhooks', body, key);
  expect(answer.status, answer.text).toBe(201);
  return answer.body.data as CreatedWebhook;
}

const deliveriesOf = async (id: string) =>
  (
    (await service.request('GET', `/v1/client/webhooks/${id}/deliveries`)).body.data as {
      items: WebhookDelivery[];
    }
  ).items;

async function untilDeliveries(
  id: string,
  done: (items: WebhookDelivery[]) => boolean,
  timeoutMs = 30_000,
): Promise<WebhookDelivery[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = await deliveriesOf(id);
    if (done(items)) return items;
    if (Date.now() > deadline) throw new Error(`deliveries: ${JSON.stringify(items)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const failing = (script = 'exit 3') =>
  submit(service, { job_definition: 't::sh:1', container_cmd_parameter: { script } });

describe('webhooks', () => {
  it('sign each state change it names with a secret shown once, and never carry a sensitive value', async () => {
    const to = await receiver();
    const hook = await create({
      url: to.url,
      states: ['running', 'failed'],
      description: 'on-call',
    });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const listed = (await service.request('GET', '/v1/client/webhooks')).text;
    expect(listed).toContain(hook.id);
    expect(listed).not.toContain(hook.secret);
    const one = await service.request('GET', `/v1/client/webhooks/${hook.id}`);
    expect(one.body.data).toEqual({
      id: hook.id,
      url: to.url,
      description: 'on-call',
      states: ['running', 'failed'],
      queues: [],
      labels: [],
      created_by: expect.any(String) as string,
      created_at: hook.created_at,
    } satisfies Webhook);

    const sensitive = 'hunter2-webhook-sensitive';
    const submitted = await service.request('POST', '/v1/client/job', {
      job_definition: 't::sh:1',
      job_queue: 't::default',
      container_cmd_parameter: { script: 'sleep 1; exit 3' },
      container_env: { TOKEN: { value: sensitive, sensitive: true } },
    });
    const id = (submitted.body.data as { id: string }).id;
    await waitForState(service, id, 'failed');
    await to.until(() => to.about(id).length === 2, 'running and failed');

    // Delivered side by side: in either order.
    const running = to.about(id).find((r) => r.event.type === 'job.running');
    const failed = to.about(id).find((r) => r.event.type === 'job.failed');
    expect(running!.event).toMatchObject({
      type: 'job.running',
      data: { to_state: 'running', job: { id, state: 'running', job_queue: 't::default' } },
    });
    expect(failed!.event).toMatchObject({
      type: 'job.failed',
      data: {
        from_state: 'running',
        to_state: 'failed',
        job: { id, state: 'failed', exit_code: 3 },
      },
    });
    for (const request of [running!, failed!]) {
      expect(() => verify(hook.secret, request)).not.toThrow();
      expect(() => verify(`whsec_${'A'.repeat(32)}`, request)).toThrow();
      expect(request.body).not.toContain(sensitive);
      expect(request.headers['content-type']).toBe('application/json');
    }
    // Each delivery has its own id, kept across its attempts.
    expect(running!.headers['webhook-id']).not.toBe(failed!.headers['webhook-id']);

    const log = await untilDeliveries(hook.id, (items) =>
      items.every((d) => d.state !== 'pending'),
    );
    expect(log.map((d) => [d.event_type, d.state, d.attempts, d.response_status])).toEqual([
      ['job.failed', 'delivered', 1, 200],
      ['job.running', 'delivered', 1, 200],
    ]);
    expect(log[0]!.job_id).toBe(id);
    expect(log[0]!.latency_ms).toBeGreaterThanOrEqual(0);
    // Neither the secret nor the sensitive value is in the store's files or the service's output.
    for (const file of await service.storeFiles()) {
      const bytes = readFileSync(file);
      expect(bytes.includes(hook.secret.slice(6))).toBe(false);
    }
    expect(service.output()).not.toContain(hook.secret);
    expect(service.output()).not.toContain(sensitive);
  });

  it('fire only for the queues and labels they name', async () => {
    const to = await receiver();
    const hook = await create({
      url: to.url,
      states: ['completed'],
      queues: ['t::single'],
      labels: ['team=data', 'ticket'],
    });
    const job = (queue: string, labels: Record<string, string>) =>
      submit(service, { job_definition: 't::echo:1', job_queue: queue, labels });
    const matching = await job('t::single', { team: 'data', ticket: 'OPS-1' });
    const others = [
      await job('t::default', { team: 'data', ticket: 'OPS-1' }),
      await job('t::single', { team: 'web', ticket: 'OPS-1' }),
      await job('t::single', { team: 'data' }),
    ];
    for (const id of [matching, ...others]) await waitForState(service, id, 'completed');
    await to.until(() => to.about(matching).length === 1, 'the matching job');
    await untilDeliveries(
      hook.id,
      (items) => items.length === 1 && items[0]!.state === 'delivered',
    );
    // Give the others' changes the time a delivery would have taken, then check none came.
    await new Promise((r) => setTimeout(r, 1500));
    expect(to.received.map((r) => 'job' in r.event.data && r.event.data.job.id)).toEqual([
      matching,
    ]);
    expect(to.about(matching)[0]!.event.data).toMatchObject({
      job: { labels: { team: 'data', ticket: 'OPS-1' } },
    });
  });

  it('retry a receiver that answers 500, is down or is slow, with backoff, until a 2xx', async () => {
    const to = await receiver();
    const hook = await create({ url: to.url, states: ['failed'] });
    let calls = 0;
    to.answer = () => {
      calls += 1;
      if (calls === 1) return { status: 500 };
      if (calls === 2) return { status: 200, delayMs: 3000 }; // past the 1 s timeout
      return { status: 204 };
    };
    const id = await failing();
    await to.until(() => calls === 3, 'three attempts');
    const [delivery] = await untilDeliveries(hook.id, ([d]) => d?.state === 'delivered');
    expect(delivery).toMatchObject({
      event_type: 'job.failed',
      job_id: id,
      attempts: 3,
      response_status: 204,
      error: null,
      next_attempt_at: null,
    });
    // The same delivery each time: one id, one body, each attempt signed afresh.
    const attempts = to.about(id);
    expect(new Set(attempts.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(attempts.map((r) => r.body)).size).toBe(1);
    for (const request of attempts) expect(() => verify(hook.secret, request)).not.toThrow();

    // Down: nothing listens on its port; the attempts say why, then it comes back.
    await to.close();
    const second = await failing();
    const waiting = await untilDeliveries(
      hook.id,
      (items) => items[0]?.job_id === second && items[0].attempts >= 2,
    );
    expect(waiting[0]).toMatchObject({
      state: 'pending',
      response_status: null,
      error: 'could not connect (ECONNREFUSED)',
    });
    expect(waiting[0]!.next_attempt_at).not.toBeNull();
    await to.listen();
    await to.until(() => to.about(second).length === 1, 'the delivery once it is back');
  });

  it('give up after max_attempts, saying why, and follow no redirect', async () => {
    const elsewhere = await receiver();
    const to = await receiver();
    to.answer = () => ({ status: 302, headers: { location: elsewhere.url } });
    const hook = await create({ url: to.url, states: ['failed'] });
    const id = await failing();
    const [delivery] = await untilDeliveries(hook.id, ([d]) => d?.state === 'failed');
    expect(delivery).toMatchObject({
      job_id: id,
      attempts: 4,
      response_status: 302,
      error: `answered 302: redirects are not followed (to ${elsewhere.url})`,
      next_attempt_at: null,
    });
    expect(to.about(id)).toHaveLength(4);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('send a test event on demand, and keep deliveries across a restart', async () => {
    const to = await receiver();
    const hook = await create({ url: to.url, states: ['failed'] });
    const test = await service.request('POST', `/v1/client/webhooks/${hook.id}/test`);
    expect(test.status).toBe(202);
    await to.until(() => to.about(null).length === 1, 'the test event');
    expect(to.about(null)[0]!.event).toMatchObject({
      type: 'webhook.test',
      data: { webhook_id: hook.id },
    });
    expect(() => verify(hook.secret, to.about(null)[0]!)).not.toThrow();

    // Down while the job fails, the service restarted meanwhile: delivered once it is back.
    await to.close();
    const id = await failing();
    await untilDeliveries(hook.id, (items) => items[0]?.job_id === id && items[0].attempts >= 1);
    await service.restart();
    await to.listen();
    await to.until(() => to.about(id).length === 1, 'the delivery after the restart');
    await untilDeliveries(hook.id, (items) => items[0]?.state === 'delivered');
  });

  it('send again, with the same id, what an instance killed mid-request never recorded', async () => {
    const to = await receiver();
    const hook = await create({ url: to.url, states: ['failed'] });
    // The first request is held until the kill; the ones after are answered at once, so a slow
    // machine does not turn them into timeouts (1 s here) and retries.
    let requests = 0;
    to.answer = () => ({ status: 200, delayMs: requests++ === 0 ? 900 : 0 });
    const id = await failing();
    await to.until(() => to.about(id).length === 1, 'the first request');
    await service.stop('SIGKILL');
    await service.restart();
    // Its claim runs out (twice the 1 s timeout, and 5 s), then the delivery goes again.
    await to.until(() => to.about(id).length === 2, 'the request sent again', 20_000);
    const [first, again] = to.about(id);
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(again!.body).toBe(first!.body);
    const [delivery] = await untilDeliveries(hook.id, ([d]) => d?.state === 'delivered');
    // Every attempt is counted, the killed one included: one per request the receiver saw.
    expect(delivery!.attempts).toBe(to.about(id).length);
    expect(delivery!.attempts).toBeGreaterThanOrEqual(2);
  });

  it('change what fires them and where they go, keeping their secret', async () => {
    const before = await receiver();
    const after = await receiver();
    const hook = await create({ url: before.url, states: ['failed'] });
    const patch = (body: unknown, key?: string) =>
      service.request('PATCH', `/v1/client/webhooks/${hook.id}`, body, key);
    const changed = await patch({ url: after.url, states: ['completed'], queues: ['t::single'] });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data).toMatchObject({
      url: after.url,
      states: ['completed'],
      queues: ['t::single'],
      labels: [],
    });
    expect(changed.text).not.toContain(hook.secret);
    const elsewhere = await submit(service, { job_definition: 't::echo:1' });
    const id = await submit(service, { job_definition: 't::echo:1', job_queue: 't::single' });
    for (const job of [elsewhere, id]) await waitForState(service, job, 'completed');
    await after.until(() => after.about(id).length === 1, 'the job in the queue named now');
    expect(() => verify(hook.secret, after.about(id)[0]!)).not.toThrow();
    expect(after.about(elsewhere)).toHaveLength(0);
    expect(before.received).toHaveLength(0);

    for (const [body, message] of [
      [{}, 'body must change at least one of'],
      [{ states: [] }, 'states: must name at least one'],
      [{ queues: ['nope'] }, 'queues: no queue "nope" in this project'],
      [{ secret: 'mine' }, 'secret'],
    ] as const) {
      const refused = await patch(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.message).toContain(message);
    }
    expect((await patch({ description: 'theirs' }, otherKey)).status).toBe(404);
  });

  it('stop sending once deleted, and stay within their project', async () => {
    const to = await receiver();
    const hook = await create({ url: to.url, states: ['completed'] });
    const other = await service.request(
      'GET',
      `/v1/client/webhooks/${hook.id}`,
      undefined,
      otherKey,
    );
    expect(other.status).toBe(404);
    expect(other.body).toEqual({
      ok: false,
      message: `id: no webhook "${hook.id}" in this project`,
    });
    expect(
      (await service.request('DELETE', `/v1/client/webhooks/${hook.id}`, undefined, otherKey))
        .status,
    ).toBe(404);
    const theirs = await service.request('GET', '/v1/client/webhooks', undefined, otherKey);
    expect(theirs.body.data).toEqual({ items: [] });
    // Another project's jobs never fire this project's webhooks.
    const theirJob = (
      await service.request(
        'POST',
        '/v1/client/job',
        { job_definition: 'other::echo:1', job_queue: 'other::default' },
        otherKey,
      )
    ).body.data as { id: string };

    const deleted = await service.request('DELETE', `/v1/client/webhooks/${hook.id}`);
    expect(deleted.body).toEqual({ ok: true });
    const id = await submit(service, { job_definition: 't::echo:1' });
    await waitForState(service, id, 'completed');
    expect((await service.request('GET', `/v1/client/webhooks/${hook.id}`)).status).toBe(404);
    // Give a delivery the time it would have taken, then check none came.
    await new Promise((r) => setTimeout(r, 1500));
    expect(to.about(id)).toHaveLength(0);
    expect(to.about(theirJob.id)).toHaveLength(0);
  });

  it('refuse bad input with a message naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ states: ['failed'] }, 'url'],
      [{ url: 'ftp://x.example/hook', states: ['failed'] }, 'url: must be an http://'],
      [{ url: 'https://u:p@x.example/hook', states: ['failed'] }, 'url: must not hold a user name'],
      [{ url: 'https://x.example/hook' }, 'states'],
      [{ url: 'https://x.example/hook', states: [] }, 'states: must name at least one'],
      [{ url: 'https://x.example/hook', states: ['exploded'] }, 'states'],
      [
        { url: 'http://127.0.0.1:9/hook', states: ['failed'], queues: ['other::default'] },
        'queues: no queue "other::default" in this project',
      ],
      [{ url: 'https://x.example/hook', states: ['failed'], labels: ['bad key'] }, 'labels'],
      [{ url: 'https://x.example/hook', states: ['failed'], secret: 'mine' }, 'secret'],
      ['not json', 'body'],
      [
        { url: 'http://10.0.0.1/hook', states: ['failed'] },
        'url: host "10.0.0.1" is not in the service\'s webhooks.allowed_hosts',
      ],
      [{ url: 'http:///nohost', states: ['failed'] }, 'url: must name its host right after'],
      [{ url: 'http:\\\\nohost/', states: ['failed'] }, 'url: must name its host right after'],
    ];
    for (const [body, message] of cases) {
      const answer = await service.request('POST', '/v1/client/webhooks', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.ok).toBe(false);
      expect(answer.body.message).toContain(message);
      expect(answer.text).not.toMatch(/\bat .*\.(ts|js):\d+/);
    }
    expect((await service.request('GET', '/v1/client/webhooks/nope/deliveries')).status).toBe(404);
    expect((await service.request('POST', '/v1/client/webhooks/nope/test')).status).toBe(404);
  });
});

// Instances share a store only on PostgreSQL.
const onPostgres = process.env.JOBDECK_TEST_STORE === 'postgres';

describe.skipIf(!onPostgres)('webhooks with two instances on one PostgreSQL store', () => {
  it('deliver each change once, whichever instance moved the job', async () => {
    const shared = {
      webhooks: { allowed_hosts: ['127.0.0.1'] },
      ...(await sharedStoreSettings()),
      reconcile_interval_seconds: 1,
    };
    const a = await startService(shared);
    const b = await startService(shared);
    try {
      const to = await receiver();
      const created = await a.request('POST', '/v1/client/webhooks', {
        url: to.url,
        states: ['failed'],
      });
      const hook = created.body.data as CreatedWebhook;
      const jobs = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          submit(i % 2 ? a : b, {
            job_definition: 't::sh:1',
            container_cmd_parameter: { script: 'exit 3' },
          }),
        ),
      );
      for (const id of jobs) await waitForState(a, id, 'failed');
      await to.until(() => jobs.every((id) => to.about(id).length > 0), 'every job');
      await new Promise((r) => setTimeout(r, 1500));
      for (const id of jobs) expect(to.about(id), id).toHaveLength(1);
      for (const request of to.received) expect(() => verify(hook.secret, request)).not.toThrow();
    } finally {
      await b.stop();
      await a.stop();
    }
  });
});
