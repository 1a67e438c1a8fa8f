import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClaimPlacement } from '../../server/jobs/model';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { T0, insertRunnable } from './new-job';

const GIB = 1024 ** 3;
const PLACEMENT: ClaimPlacement = {
  hosts: [
    { id: 'h1', name: 'h1', cpus: 4, memoryBytes: 8 * GIB, gpus: 0, state: 'ready' },
    { id: 'h2', name: 'h2', cpus: 2, memoryBytes: 2 * GIB, gpus: 0, state: 'ready' },
  ],
  policy: 'binpack',
  fallback: { cpus: 1, memoryBytes: GIB },
};

const claimIn = (queue: string, owner: string) => ({
  queue,
  limit: 20,
  queueMax: 20,
  serviceMax: 100,
  owner,
  at: T0 + 10,
  placement: PLACEMENT,
});

describe.each(DRIVERS)('claims that place on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  it('never place more on a host than it has, however many claim at once', async () => {
    const resources = { cpus: 1, memoryBytes: GIB, gpus: 0 };
    for (let i = 0; i < 20; i += 1) {
      await insertRunnable(store.jobs, { queue: i % 2 ? 'p::a' : 'p::b', resources });
    }
    // Four claims at once, two per queue, as instances would: 4 + 2 CPUs, so 6 jobs in all.
    const claims = await Promise.all([
      store.jobs.claimRunnable(claimIn('p::a', 'i1'), () => 'starting'),
      store.jobs.claimRunnable(claimIn('p::b', 'i2'), () => 'starting'),
      store.jobs.claimRunnable(claimIn('p::a', 'i3'), () => 'starting'),
      store.jobs.claimRunnable(claimIn('p::b', 'i4'), () => 'starting'),
    ]);
    const claimed = claims.flat();
    expect(claimed).toHaveLength(6);
    const onHost = (id: string) => claimed.filter((j) => j.host === id).length;
    expect([onHost('h1'), onHost('h2')]).toEqual([4, 2]);

    // The rest wait, each with why: 1 CPU asked, none free.
    const waiting = (await store.jobs.jobsInStates(['runnable'])).filter((j) => j.queue === 'p::a');
    expect(waiting.every((j) => j.placementNote !== null)).toBe(true);
    expect(waiting[0]!.placementNote).toBe(
      'waiting: needs 1 CPU; the most free on any host is 0 CPUs (2 hosts)',
    );
  });

  it('counts a job stored before requests were kept as its limits', async () => {
    await insertRunnable(store.jobs, {
      queue: 'p::a',
      resources: null,
      cpus: null,
      memoryBytes: null,
    });
    await insertRunnable(store.jobs, { queue: 'p::a', resources: null, cpus: 4, memoryBytes: GIB });
    const [first, second] = await store.jobs.claimRunnable(claimIn('p::a', 'i1'), () => 'starting');
    // The first asks for the fallback (1 CPU) and goes where it leaves least room: h2.
    expect(first!.host).toBe('h2');
    // The second asks for 4 CPUs: only h1 has them.
    expect(second!.host).toBe('h1');
  });
});

describe.each(DRIVERS)('claims that start a few at a time (fair share) on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  it('start at most `starts` jobs and leave the notes of those that still wait for room', async () => {
    const claim = (starts?: number) =>
      store.jobs.claimRunnable(
        { ...claimIn('p::a', 'i1'), ...(starts !== undefined && { starts }) },
        () => 'starting',
      );
    const size = (gib: number) => ({ cpus: 1, memoryBytes: gib * GIB, gpus: 0 });
    // Fillers take both hosts whole (8 GiB on h1, 2 GiB on h2).
    await insertRunnable(store.jobs, { queue: 'p::a', resources: size(8) });
    await insertRunnable(store.jobs, { queue: 'p::a', resources: size(2) });
    const fillers = await claim();
    expect(fillers).toHaveLength(2);
    // A 2 GiB job, then an 8 GiB one: neither fits; both get a note.
    await insertRunnable(store.jobs, { queue: 'p::a', resources: size(2) });
    const big = await insertRunnable(store.jobs, { queue: 'p::a', resources: size(8) });
    expect(await claim()).toEqual([]);
    const noteOfBig = async () => (await store.jobs.getJob(big.id))!.placementNote;
    expect(await noteOfBig()).toMatch(/^waiting: needs 8 GiB of memory/);

    // h2's filler ends: the 2 GiB job starts there, alone (starts: 1).
    const onH2 = fillers.find((j) => j.host === 'h2')!;
    await store.jobs.moveJob({
      id: onH2.id,
      from: 'starting',
      to: 'completed',
      at: T0 + 20,
      note: null,
    });
    expect((await claim(1)).map((j) => j.host)).toEqual(['h2']);
    // The big job was not looked at past the claim's one start: its note stays, it still waits.
    expect(await noteOfBig()).toMatch(/^waiting: needs 8 GiB of memory/);
  });
});

describe.each(DRIVERS)('claims under a quota on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  it('start the first jobs that fit the room together, and none past one that does not', async () => {
    const cpus = (n: number) => ({ cpus: n, memoryBytes: GIB, gpus: 0 });
    const ids = [];
    for (const n of [1, 1, 2, 1]) {
      ids.push((await insertRunnable(store.jobs, { queue: 'p::a', resources: cpus(n) })).id);
    }
    const room = { cpus: 3, memoryBytes: Infinity, gpus: Infinity, jobs: Infinity };
    const quota = { room, fallback: PLACEMENT.fallback };
    // 1 + 1 fit 3 CPUs; the 2-CPU job does not fit the 1 left, and the 1-CPU job behind it waits.
    const claimed = await store.jobs.claimRunnable(
      { ...claimIn('p::a', 'i1'), quota },
      () => 'starting',
    );
    expect(claimed.map((j) => j.id)).toEqual(ids.slice(0, 2));
    // With room for 2 more jobs in all, the 2-CPU job and the one behind it start.
    const next = await store.jobs.claimRunnable(
      { ...claimIn('p::a', 'i1'), quota: { ...quota, room: { ...room, jobs: 2 } } },
      () => 'starting',
    );
    expect(next.map((j) => j.id)).toEqual(ids.slice(2));
  });
});
