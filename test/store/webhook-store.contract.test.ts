import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newDelivery } from '../../server/jobs/webhooks';
import type { WebhookRecord } from '../../server/jobs/webhook-records';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { newJob, T0 } from './new-job';

describe.each(DRIVERS)('WebhookStore on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  const webhook = (id: string, project = 'p'): WebhookRecord => ({
    id,
    project,
    url: `https://hooks.example.com/${id}`,
    description: '',
    states: ['failed'],
    queues: [],
    labels: [{ key: 'team', value: 'data' }, { key: 'ticket' }],
    sealedSecret: `sealed-${id}`,
    fromSeq: 0,
    createdBy: 'k1',
    createdAt: T0,
  });
  const delivery = (webhookId: string, now = T0) =>
    newDelivery(webhookId, { type: 'job.failed', jobId: null, payload: '{}' }, now);

  it('keeps webhooks by project with their selectors, and deletes one with its deliveries', async () => {
    await store.webhooks.create(webhook('w1'), 20);
    await store.webhooks.create(webhook('w2', 'other'), 20);
    expect(await store.webhooks.list('p')).toEqual([webhook('w1')]);
    expect((await store.webhooks.list()).map((w) => w.id)).toEqual(['w1', 'w2']);
    await store.webhooks.enqueue(delivery('w1'));
    expect(await store.webhooks.remove('w1')).toBe(true);
    expect(await store.webhooks.remove('w1')).toBe(false);
    expect(await store.webhooks.deliveries('w1', 10)).toEqual([]);
  });

  it('moves the cursor once from where it was read, storing the deliveries with it', async () => {
    await store.webhooks.create(webhook('w1'), 20);
    expect(await store.webhooks.cursor(7)).toBe(7);
    expect(await store.webhooks.cursor(99)).toBe(7); // created once
    const [first, second] = [delivery('w1'), delivery('w1')];
    expect(await store.webhooks.advance({ fromSeq: 7, toSeq: 12, deliveries: [first] })).toBe(true);
    // A second reader that read the cursor at 7 too stores nothing.
    expect(await store.webhooks.advance({ fromSeq: 7, toSeq: 12, deliveries: [second] })).toBe(
      false,
    );
    expect(await store.webhooks.cursor(0)).toBe(12);
    expect((await store.webhooks.deliveries('w1', 10)).map((d) => d.id)).toEqual([first.id]);
  });

  it('reads the changes into the states asked for, every project’s, in order', async () => {
    const job = newJob({ name: 'n1' });
    await store.jobs.insertJob(job, 'fingerprint');
    const before = await store.jobs.lastChangeSeq();
    await store.jobs.moveJob({
      id: job.id,
      from: 'submitted',
      to: 'failed',
      note: 'x',
      at: T0 + 1,
    });
    const changes = await store.webhooks.changesInto({
      states: ['failed'],
      afterSeq: before,
      uptoSeq: before + 10,
      limit: 10,
    });
    expect(changes.map((c) => [c.job.id, c.transition.from, c.transition.to])).toEqual([
      [job.id, 'submitted', 'failed'],
    ]);
    expect(
      await store.webhooks.changesInto({
        states: ['completed'],
        afterSeq: before,
        uptoSeq: before + 10,
        limit: 10,
      }),
    ).toEqual([]);
  });

  it('leases a due delivery to one courier, and settles only the attempt it counted', async () => {
    await store.webhooks.create(webhook('w1'), 20);
    const d = delivery('w1');
    await store.webhooks.enqueue(d);
    const [claimed, again] = await Promise.all([
      store.webhooks.claimDue({ now: T0, leaseUntil: T0 + 1000, limit: 5, perWebhook: 4 }),
      store.webhooks.claimDue({ now: T0, leaseUntil: T0 + 1000, limit: 5, perWebhook: 4 }),
    ]);
    expect([...claimed!, ...again!].map((c) => [c.id, c.attempts, c.url, c.sealedSecret])).toEqual([
      [d.id, 1, 'https://hooks.example.com/w1', 'sealed-w1'],
    ]);
    // Leased: nobody else takes it until the lease ends, and then it is due at its end.
    expect(
      await store.webhooks.claimDue({
        now: T0 + 999,
        leaseUntil: T0 + 2000,
        limit: 5,
        perWebhook: 4,
      }),
    ).toEqual([]);
    expect(await store.webhooks.nextDueAt()).toBe(T0 + 1000);
    const retaken = await store.webhooks.claimDue({
      now: T0 + 1000,
      leaseUntil: T0 + 3000,
      limit: 5,
      perWebhook: 4,
    });
    expect(retaken.map((c) => c.attempts)).toEqual([2]);
    // The first courier's late answer is of attempt 1: ignored.
    const outcome = { status: 500, latencyMs: 3, error: 'answered 500', now: T0 + 1500 };
    await store.webhooks.settle([
      {
        delivery: { id: d.id, attempts: 1, webhookId: 'w1' },
        outcome: { ...outcome, state: 'failed', nextAttemptAt: T0 },
      },
    ]);
    expect((await store.webhooks.deliveries('w1', 1))[0]!.state).toBe('pending');
    await store.webhooks.settle([
      {
        delivery: { id: d.id, attempts: 2, webhookId: 'w1' },
        outcome: { ...outcome, state: 'pending', nextAttemptAt: T0 + 5000 },
      },
    ]);
    expect(await store.webhooks.deliveries('w1', 1)).toMatchObject([
      {
        state: 'pending',
        attempts: 2,
        lastStatus: 500,
        lastError: 'answered 500',
        nextAttemptAt: T0 + 5000,
      },
    ]);
    expect(await store.webhooks.nextDueAt()).toBe(T0 + 5000);
    expect(
      await store.webhooks.claimDue({
        now: T0 + 4999,
        leaseUntil: T0 + 9000,
        limit: 5,
        perWebhook: 4,
      }),
    ).toEqual([]);
  });

  it('holds at most four of one webhook at once, and a failure holds its others back', async () => {
    await store.webhooks.create(webhook('hung'), 20);
    await store.webhooks.create(webhook('ok'), 20);
    for (let i = 0; i < 10; i += 1) await store.webhooks.enqueue(delivery('hung', T0 - 100 + i));
    const healthy = delivery('ok', T0);
    await store.webhooks.enqueue(healthy);
    const first = await store.webhooks.claimDue({
      now: T0,
      leaseUntil: T0 + 1000,
      limit: 32,
      perWebhook: 4,
    });
    expect(first.filter((d) => d.webhookId === 'hung')).toHaveLength(4);
    expect(first.filter((d) => d.webhookId === 'ok').map((d) => d.id)).toEqual([healthy.id]);
    // Four held: none more of it until one is given back.
    expect(
      await store.webhooks.claimDue({
        now: T0 + 1,
        leaseUntil: T0 + 1000,
        limit: 32,
        perWebhook: 4,
      }),
    ).toEqual([]);
    const failedOne = first.find((d) => d.webhookId === 'hung')!;
    await store.webhooks.settle([
      {
        delivery: failedOne,
        outcome: {
          state: 'pending',
          status: null,
          latencyMs: null,
          error: 'no answer within 10 s',
          nextAttemptAt: T0 + 60_000,
          now: T0 + 2,
        },
      },
    ]);
    // Its six unclaimed ones wait for its next try too; the three still held are untouched.
    expect(
      await store.webhooks.claimDue({
        now: T0 + 3,
        leaseUntil: T0 + 1000,
        limit: 32,
        perWebhook: 4,
      }),
    ).toEqual([]);
    // Then (every lease run out too): four of it again, and the healthy one's lapsed claim.
    const later = await store.webhooks.claimDue({
      now: T0 + 60_000,
      leaseUntil: T0 + 70_000,
      limit: 32,
      perWebhook: 4,
    });
    expect(later.filter((d) => d.webhookId === 'hung')).toHaveLength(4);
    expect(later.filter((d) => d.webhookId === 'ok')).toHaveLength(1);
  });

  it('stores more deliveries in one move of the cursor than one statement may hold', async () => {
    await store.webhooks.create(webhook('w1'), 20);
    const many = Array.from({ length: 5000 }, () => delivery('w1'));
    expect(
      await store.webhooks.advance({
        fromSeq: await store.webhooks.cursor(0),
        toSeq: 1,
        deliveries: many,
      }),
    ).toBe(true);
    expect(await store.webhooks.deliveries('w1', 10_000)).toHaveLength(5000);
  });

  it('drops the deliveries of a webhook deleted before they were stored', async () => {
    await store.webhooks.create(webhook('w1'), 20);
    await store.webhooks.remove('w1');
    await store.webhooks.enqueue(delivery('w1'));
    expect(
      await store.webhooks.claimDue({ now: T0, leaseUntil: T0 + 1000, limit: 5, perWebhook: 4 }),
    ).toEqual([]);
    expect(await store.webhooks.nextDueAt()).toBeUndefined();
  });

  it('prunes ended deliveries older than asked, never pending ones', async () => {
    await store.webhooks.create(webhook('w1'), 20);
    const [old, pending] = [delivery('w1'), delivery('w1')];
    await store.webhooks.enqueue(old);
    await store.webhooks.enqueue(pending);
    const [claimed] = await store.webhooks.claimDue({
      now: T0,
      leaseUntil: T0 + 1000,
      limit: 1,
      perWebhook: 4,
    });
    const ok = { status: 200, latencyMs: 1, error: null, nextAttemptAt: T0 };
    await store.webhooks.settle([
      { delivery: claimed!, outcome: { ...ok, state: 'delivered', now: T0 + 10 } },
    ]);
    expect(await store.webhooks.pruneEnded({ before: T0 + 10, limit: 100 })).toBe(0);
    expect(await store.webhooks.pruneEnded({ before: T0 + 11, limit: 100 })).toBe(1);
    expect((await store.webhooks.deliveries('w1', 10)).map((d) => d.state)).toEqual(['pending']);
  });

  it('replaces a sealed secret only if it is still the one read', async () => {
    await store.webhooks.create(webhook('w1'), 20);
    expect(
      await store.webhooks.replaceSecret({ id: 'w1', readSealed: 'sealed-w1', sealed: 'resealed' }),
    ).toBe(true);
    expect(
      await store.webhooks.replaceSecret({ id: 'w1', readSealed: 'sealed-w1', sealed: 'other' }),
    ).toBe(false);
    expect((await store.webhooks.list('p'))[0]!.sealedSecret).toBe('resealed');
  });
});
