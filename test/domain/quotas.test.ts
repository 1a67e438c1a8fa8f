import { afterEach, describe, expect, it } from 'vitest';
import { FakeRuntime } from '../../server/runtime/fake/fake-runtime';
import { startDomain, until } from './harness';

/**
 * Quotas through the real dispatcher on the fake engine (which reports no hosts: jobs are the
 * dimension): project t's queues `default` and `other` have a quota of 2 jobs each.
 */
let domain: Awaited<ReturnType<typeof startDomain>>;
afterEach(() => domain.close());

// No reconciler pass comes to the rescue within a test: whatever moves, the dispatcher moved.
const NO_PASS_MS = 600_000;

async function start(defaultQuota: object, otherQuota: object, other: object = {}) {
  domain = await startDomain(new FakeRuntime(), {
    reconcileIntervalMs: NO_PASS_MS,
    queues: {
      default: { max_running: 10, quota: defaultQuota },
      other: { max_running: 10, quota: otherQuota, ...other },
    },
  });
}

const submitTo = (queue: 'default' | 'other', n: number) =>
  Promise.all(Array.from({ length: n }, () => domain.submit({ job_queue: `t::${queue}` })));

async function states(ids: string[]) {
  return Promise.all(ids.map(async (id) => (await domain.system.service.detail('t', id)).state));
}
const count = (all: string[], state: string) => all.filter((s) => s === state).length;
const noteOf = async (id: string) => (await domain.system.service.detail('t', id)).systemNote;
/** A waiting job's note, once the figures it quotes (read at most once a second) are new. */
async function noteBecomes(id: string, expected: string) {
  await until(async () => (await noteOf(id)) === expected, `the note of ${id}`, 20_000).catch(
    () => undefined,
  );
  expect(await noteOf(id)).toBe(expected);
}

describe('quotas in the dispatcher', () => {
  it('holds a queue at its quota and what it may borrow of idle quota', async () => {
    await start({ jobs: 2, borrowing_limit: { jobs: 1 } }, { jobs: 2 });
    const ids = await submitTo('default', 5);
    for (const id of ids.slice(0, 3)) await domain.waitFor(id, 'running', 20_000);
    await domain.waitFor(ids[3]!, 'runnable', 20_000);
    expect(count(await states(ids), 'running')).toBe(3);
    await noteBecomes(
      ids[3]!,
      'waiting: queue t::default is at its quota of 2 jobs (borrowing 1 of 1 allowed)',
    );
    // A job ending frees one: the next starts, and no more.
    domain.engine.exit(ids[0]!, 0);
    await domain.waitFor(ids[3]!, 'running', 20_000);
    expect(count(await states(ids), 'running')).toBe(3);
  });

  it("borrows nothing past a lender's lending limit", async () => {
    await start({ jobs: 2 }, { jobs: 2, lending_limit: { jobs: 0 } });
    const ids = await submitTo('default', 3);
    for (const id of ids.slice(0, 2)) await domain.waitFor(id, 'running', 20_000);
    await domain.waitFor(ids[2]!, 'runnable', 20_000);
    await noteBecomes(
      ids[2]!,
      'waiting: queue t::default is at its quota of 2 jobs (borrowing 0; no unused quota to borrow)',
    );
  });

  it("starts no new borrowed job while the lender's own jobs wait, and borrows again after", async () => {
    // other runs one job at a time: a second job of it waits with quota unused.
    await start({ jobs: 2 }, { jobs: 2 }, { max_running: 1 });
    const ids = await submitTo('default', 6);
    for (const id of ids.slice(0, 4)) await domain.waitFor(id, 'running', 20_000);
    const lender = await submitTo('other', 2);
    await domain.waitFor(lender[0]!, 'running', 20_000);
    await domain.waitFor(lender[1]!, 'runnable', 20_000);
    // Two of default's borrowed jobs end: none of its waiting jobs starts in their place.
    domain.engine.exit(ids[0]!, 0);
    domain.engine.exit(ids[1]!, 0);
    await domain.waitFor(ids[1]!, 'completed', 20_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(await states(ids.slice(4))).toEqual(['runnable', 'runnable']);
    await noteBecomes(
      ids[4]!,
      "waiting: queue t::default is at its quota of 2 jobs (borrowing 0; the lenders' own jobs wait)",
    );
    // The lender's jobs end: nothing of it waits, and default borrows again.
    domain.engine.exit(lender[0]!, 0);
    await domain.waitFor(lender[1]!, 'running', 20_000);
    domain.engine.exit(lender[1]!, 0);
    await domain.waitFor(ids[4]!, 'running', 20_000);
    await domain.waitFor(ids[5]!, 'running', 20_000);
  });

  it("lends a paused queue's quota: its waiting jobs reclaim nothing", async () => {
    await start({ jobs: 2 }, { jobs: 2 }, { paused: true });
    const lender = await submitTo('other', 2);
    const ids = await submitTo('default', 5);
    for (const id of ids.slice(0, 4)) await domain.waitFor(id, 'running', 20_000);
    await noteBecomes(
      ids[4]!,
      'waiting: queue t::default is at its quota of 2 jobs (borrowing 2; no unused quota to borrow)',
    );
    expect(await states(lender)).toEqual(['runnable', 'runnable']);
  });
});
