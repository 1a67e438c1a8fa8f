import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStore } from '../../server/store/open-store';
import type { NewApiKey, Store } from '../../server/store/ports';
import { DRIVERS, type StoreConfig } from './drivers';
import { newJob } from './new-job';

const newKey = (key: Partial<NewApiKey> = {}): NewApiKey => ({
  label: null,
  role: 'operator',
  expiresAt: null,
  createdBy: null,
  ...key,
});

describe.each(DRIVERS)('KeyStore and MetaStore on $name', (driver) => {
  let config: StoreConfig;
  let store: Store;
  beforeEach(async () => {
    config = await driver.fresh();
    store = await openStore(config);
  });
  afterEach(() => store.close());

  it('authenticates a created key for its project until it is revoked', async () => {
    const before = Date.now();
    const { id, key } = await store.keys.create('p', newKey({ label: 'ci' }));
    expect(key).toMatch(/^jd_[A-Za-z0-9_-]{43}$/);
    expect(await store.keys.authenticate(key)).toEqual({
      keyId: id,
      project: 'p',
      role: 'operator',
      actor: `key:${id}`,
    });
    expect(await store.keys.authenticate(`${key}x`)).toBeUndefined();

    const [listed] = await store.keys.list();
    expect(listed).toMatchObject({ id, project: 'p', label: 'ci', revokedAt: null });
    expect(listed!.createdAt).toBeGreaterThanOrEqual(before);

    expect(await store.keys.revoke(id)).toBe(true);
    expect(await store.keys.authenticate(key)).toBeUndefined();
    expect((await store.keys.list())[0]!.revokedAt).toBeGreaterThanOrEqual(listed!.createdAt);
    expect(await store.keys.revoke(id)).toBe(true); // twice is fine
    expect(await store.keys.revoke('key_unknown')).toBe(false);
  });

  it('lists keys oldest first, never the keys themselves', async () => {
    const first = await store.keys.create('p', newKey());
    const second = await store.keys.create('q', newKey({ label: 'other' }));
    const listed = await store.keys.list();
    expect(listed.map((k) => k.id)).toEqual([first.id, second.id]);
    expect(JSON.stringify(listed)).not.toContain(first.key);
  });

  it('refuses a key past its expiry and lists one project with role, creator and last use', async () => {
    const live = await store.keys.create('p', newKey({ role: 'viewer', createdBy: 'user:a@x' }));
    const past = await store.keys.create('p', newKey({ expiresAt: Date.now() - 1 }));
    const soon = await store.keys.create('p', newKey({ expiresAt: Date.now() + 60_000 }));
    await store.keys.create('q', newKey());
    expect(await store.keys.authenticate(past.key)).toBeUndefined();
    expect(await store.keys.authenticate(soon.key)).toMatchObject({ role: 'operator' });
    expect(await store.keys.authenticate(live.key)).toMatchObject({ role: 'viewer' });

    const listed = await vi.waitUntil(async () => {
      const keys = await store.keys.list('p');
      return keys.every((k) => k.id === past.id || k.lastUsedAt !== null) && keys;
    });
    expect(listed.map((k) => k.id)).toEqual([live.id, past.id, soon.id]);
    expect(listed[0]).toMatchObject({ role: 'viewer', createdBy: 'user:a@x', expiresAt: null });
    expect(listed[1]!.lastUsedAt).toBeNull();
    // Revoking through another project's name finds nothing.
    expect(await store.keys.revoke(live.id, 'q')).toBe(false);
    expect(await store.keys.revoke(live.id, 'p')).toBe(true);
  });

  it('keeps one store id and one position key for the life of the store', async () => {
    const id = await store.meta.storeId();
    const key = await store.meta.positionKey();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(key).toHaveLength(32);
    expect(await store.meta.storeId()).toBe(id);
    await store.close();
    store = await openStore(config);
    expect(await store.meta.storeId()).toBe(id);
    expect((await store.meta.positionKey()).equals(key)).toBe(true);
  });

  it('reports definitions whose content changed since a job first used them', async () => {
    await store.jobs.insertJob(newJob({ definition: 'p::echo:1' }), 'fp-1');
    // A later job pins nothing new: the first use counts.
    await store.jobs.insertJob(newJob({ definition: 'p::echo:1' }), 'fp-other');
    await store.jobs.insertJob(newJob({ definition: 'p::sleep:1' }), 'fp-sleep');
    const current = new Map([
      ['p::echo:1', 'fp-1'],
      ['p::sleep:1', 'fp-sleep-changed'],
      ['p::never-used:1', 'fp-x'],
    ]);
    expect(await store.meta.changedDefinitions(current)).toEqual(['p::sleep:1']);
    current.set('p::echo:1', 'fp-2');
    expect((await store.meta.changedDefinitions(current)).sort()).toEqual([
      'p::echo:1',
      'p::sleep:1',
    ]);
  });
});
