import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookRecord } from '../../server/jobs/webhook-records';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS, queryBeside, type StoreConfig } from './drivers';
import { T0 } from './new-job';

/** Creates fired at once, against this limit: many more than it, so that a race would show. */
const LIMIT = 5;
const CREATES = 40;

/**
 * A project's webhooks, views and keys are counted and inserted within a limit. On SQLite, BEGIN
 * IMMEDIATE holds the one write lock from the count to the commit; on PostgreSQL two instances
 * (each with a pool of connections) race here, and must not both count one below the limit.
 */
describe.each(DRIVERS)('project limits under concurrent creates on $name', (driver) => {
  let config: StoreConfig;
  let stores: Store[];
  beforeEach(async () => {
    config = await driver.fresh();
    const first = await openStore(config);
    // Two instances on one database where the driver has them (one SQLite file is one process's).
    stores = driver.name === 'postgres' ? [first, await openStore(config)] : [first];
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
  });

  /** Fires every create at once, alternating instances; how many said yes. */
  async function race(create: (store: Store, i: number) => Promise<boolean>): Promise<number> {
    const answers = await Promise.all(
      Array.from({ length: CREATES }, (_, i) => create(stores[i % stores.length]!, i)),
    );
    return answers.filter(Boolean).length;
  }

  const rowsOf = async (table: string, project: string) =>
    Number(
      (
        await queryBeside<{ n: number | string }>(
          config,
          `SELECT count(*) AS n FROM ${table} WHERE project = '${project}'`,
        )
      )[0]!.n,
    );

  const webhook = (id: string): WebhookRecord => ({
    id,
    project: 'p',
    url: `https://hooks.example.com/${id}`,
    description: '',
    states: ['failed'],
    queues: [],
    labels: [],
    sealedSecret: `sealed-${id}`,
    fromSeq: 0,
    createdBy: 'k1',
    createdAt: T0,
  });

  it('store at most the limit of webhooks', async () => {
    await stores[0]!.webhooks.create({ ...webhook('elsewhere'), project: 'other' }, LIMIT);
    expect(await race((store, i) => store.webhooks.create(webhook(`w${i}`), LIMIT))).toBe(LIMIT);
    expect(await rowsOf('webhooks', 'p')).toBe(LIMIT);
    // Another project's count is its own.
    expect(await stores[0]!.webhooks.create({ ...webhook('x'), project: 'other' }, 2)).toBe(true);
  });

  it('store at most the limit of views', async () => {
    const view = (i: number) => ({
      name: `view ${i}`,
      search: 'state=failed',
      createdBy: 'k1',
      savedAt: T0,
    });
    const saved = await race(
      async (store, i) => (await store.views.save('p', view(i), LIMIT)).saved,
    );
    expect(saved).toBe(LIMIT);
    expect(await rowsOf('saved_views', 'p')).toBe(LIMIT);
  });

  it('store at most the limit of active keys, revoked and expired ones not counted', async () => {
    const key = { label: null, role: 'operator' as const, expiresAt: null, createdBy: null };
    const revoked = await stores[0]!.keys.create('p', key);
    await stores[0]!.keys.revoke(revoked.id);
    await stores[0]!.keys.create('p', { ...key, expiresAt: Date.now() - 1000 });
    const made = await race(
      async (store) => (await store.keys.createWithin('p', key, LIMIT)) !== undefined,
    );
    expect(made).toBe(LIMIT);
    expect(await rowsOf('api_keys', 'p')).toBe(LIMIT + 2);
  });
});
