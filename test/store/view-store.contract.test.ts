import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { T0 } from './new-job';

describe.each(DRIVERS)('ViewStore on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  const view = (name: string, search = 'state=failed', savedAt = T0) => ({
    name,
    search,
    createdBy: 'k1',
    savedAt,
  });

  it('saves, replaces and lists a project’s views by name, apart from other projects', async () => {
    expect(await store.views.save('p', view('failed today'), 10)).toEqual({ saved: true });
    expect(await store.views.save('p', view('Data team', 'label=team%3Ddata'), 10)).toEqual({
      saved: true,
    });
    await store.views.save('other', view('theirs'), 10);
    await store.views.save('p', view('failed today', 'state=failed&created=24h', T0 + 1), 10);
    expect(await store.views.list('p')).toEqual([
      view('Data team', 'label=team%3Ddata'),
      view('failed today', 'state=failed&created=24h', T0 + 1),
    ]);
  });

  it('stores no new view past the limit, but still replaces one', async () => {
    await store.views.save('p', view('a'), 2);
    await store.views.save('p', view('b'), 2);
    expect(await store.views.save('p', view('c'), 2)).toEqual({ saved: false });
    expect(await store.views.save('p', view('b', 'state=running'), 2)).toEqual({ saved: true });
    expect((await store.views.list('p')).map((v) => v.search)).toEqual([
      'state=failed',
      'state=running',
    ]);
  });

  it('removes a view once; another project’s stays', async () => {
    await store.views.save('p', view('a'), 10);
    await store.views.save('other', view('a'), 10);
    expect(await store.views.remove('p', 'a')).toBe(true);
    expect(await store.views.remove('p', 'a')).toBe(false);
    expect(await store.views.list('other')).toHaveLength(1);
  });
});
