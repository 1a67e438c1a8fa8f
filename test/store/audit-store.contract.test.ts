import { QueryCreator } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { AuditEntry } from '../../server/jobs/ports';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { T0 } from './new-job';

describe.each(DRIVERS)('AuditStore on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  let n = 0;
  const entry = (fields: Partial<AuditEntry> = {}): AuditEntry => ({
    id: `e-${++n}`,
    project: 'p',
    at: T0 + n,
    actor: 'key:k1',
    address: '127.0.0.1',
    action: 'job.submit',
    target: `job-${n}`,
    detail: { definition: 'p::echo:1', queue: 'p::default' },
    ...fields,
  });
  const ids = (entries: { id: string }[]) => entries.map((e) => e.id);

  it('keeps every field, lists a project’s events newest first, and never another project’s', async () => {
    const first = entry();
    const second = entry({ action: 'job.cancel', target: first.target, detail: {} });
    const theirs = entry({ project: 'other' });
    const signIn = entry({ project: null, action: 'user.sign_in_failed', target: null });
    await store.audit.append([first, second, theirs, signIn]);
    const listed = await store.audit.list('p', { limit: 10 });
    expect(listed.map(({ seq: _seq, ...rest }) => rest)).toEqual([second, first]);
    expect(listed[0]!.seq).toBeGreaterThan(listed[1]!.seq);
    expect(ids(await store.audit.list('other', { limit: 10 }))).toEqual([theirs.id]);
  });

  it('stores a batch of thousands in one append, in order', async () => {
    const batch = Array.from({ length: 2500 }, () => entry());
    await store.audit.append(batch);
    const newest = await store.audit.list('p', { limit: 200 });
    expect(newest[0]!.id).toBe(batch.at(-1)!.id);
    expect(ids(newest)).toEqual(ids(batch.slice(-200).reverse()));
  });

  it('builds no query per append: its insert is compiled once for each row count', async () => {
    const flush = () => Array.from({ length: 150 }, () => entry());
    await store.audit.append(flush());
    const built = vi.spyOn(QueryCreator.prototype, 'insertInto');
    onTestFinished(() => built.mockRestore());
    const second = flush();
    await store.audit.append(second);
    expect(built).not.toHaveBeenCalled();
    expect(ids(await store.audit.list('p', { limit: 150 }))).toEqual(ids(second.reverse()));
  });

  it('filters by actor, action, target and time, and pages by position', async () => {
    const events = [
      entry({ actor: 'key:a', action: 'job.submit', target: 'j1' }),
      entry({ actor: 'key:b', action: 'job.submit', target: 'j2' }),
      entry({ actor: 'key:a', action: 'job.cancel', target: 'j1' }),
      entry({ actor: 'user:ann', action: 'queue.pause', target: 'p::default' }),
    ];
    await store.audit.append(events);
    const [e1, e2, e3, e4] = events as [AuditEntry, AuditEntry, AuditEntry, AuditEntry];
    expect(ids(await store.audit.list('p', { actor: 'key:a', limit: 10 }))).toEqual([e3.id, e1.id]);
    expect(ids(await store.audit.list('p', { action: 'job.submit', limit: 10 }))).toEqual([
      e2.id,
      e1.id,
    ]);
    expect(ids(await store.audit.list('p', { target: 'j1', limit: 10 }))).toEqual([e3.id, e1.id]);
    expect(ids(await store.audit.list('p', { since: e2.at, until: e4.at, limit: 10 }))).toEqual([
      e3.id,
      e2.id,
    ]);
    const page = await store.audit.list('p', { limit: 2 });
    expect(ids(page)).toEqual([e4.id, e3.id]);
    const older = await store.audit.list('p', { limit: 2, beforeSeq: page.at(-1)!.seq });
    expect(ids(older)).toEqual([e2.id, e1.id]);
    expect(await store.audit.list('p', { limit: 2, beforeSeq: older.at(-1)!.seq })).toEqual([]);
  });

  it('prunes the oldest events before a time, a bounded batch at a time', async () => {
    const old = Array.from({ length: 5 }, () => entry({ at: T0 - 1000 }));
    const kept = entry({ at: T0 + 1000 });
    await store.audit.append([...old, kept]);
    expect(await store.audit.prune({ before: T0, limit: 3 })).toBe(3);
    expect(await store.audit.prune({ before: T0, limit: 3 })).toBe(2);
    expect(await store.audit.prune({ before: T0, limit: 3 })).toBe(0);
    expect(ids(await store.audit.list('p', { limit: 10 }))).toEqual([kept.id]);
  });
});
