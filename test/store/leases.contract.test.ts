import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LeaseLostError } from '../../server/jobs/lease-fence';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS, queryBeside, runWorker, type StoreConfig } from './drivers';
import { T0, insertRunnable } from './new-job';

const TTL = 1_000;
const take = (store: Store, holder: string, now: number) =>
  store.leases.acquire({ name: 'dispatcher', holder, now, ttlMs: TTL });

/** Whether the process is stopped (SIGSTOP): the state after the name in /proc/<pid>/stat. */
const stopped = (pid: number) =>
  /\) T /.test(readFileSync(`/proc/${pid}/stat`, 'utf8').slice(-2_000));

async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`waited 60 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** PostgreSQL: a statement writing the leases table waits for a lock another transaction holds. */
async function leaseWriteWaits(config: StoreConfig): Promise<boolean> {
  if (config.store.type !== 'postgres') return false;
  const rows = await queryBeside<{ waiting: string }>(
    config,
    `SELECT count(*) AS waiting FROM pg_stat_activity
      WHERE wait_event_type = 'Lock' AND query ILIKE 'update "leases"%'`,
  );
  return Number(rows[0]?.waiting) > 0;
}

describe.each(DRIVERS)('the dispatcher lease on $name', (driver) => {
  let config: StoreConfig;
  let store: Store;
  beforeEach(async () => {
    config = await driver.fresh();
    store = await openStore(config);
  });
  afterEach(() => store.close());

  it('is taken once, renewed by its holder alone, taken over only once it lapsed (epoch raised)', async () => {
    expect(await store.leases.read('dispatcher')).toBeUndefined();
    const first = { name: 'dispatcher', holder: 'a', epoch: 1, expiresAt: T0 + TTL };
    expect(await take(store, 'a', T0)).toEqual(first);
    // Held: another's try says who holds it, and changes nothing.
    expect(await take(store, 'b', T0 + 500)).toEqual(first);
    // Renewed by its holder: the same epoch, a later lapse.
    expect(await take(store, 'a', T0 + 600)).toEqual({ ...first, expiresAt: T0 + 600 + TTL });
    expect(await take(store, 'b', T0 + 1_599)).toMatchObject({ holder: 'a', epoch: 1 });
    // Lapsed (a stopped renewing): the next try takes it under a new epoch.
    const second = { name: 'dispatcher', holder: 'b', epoch: 2, expiresAt: T0 + 1_600 + TTL };
    expect(await take(store, 'b', T0 + 1_600)).toEqual(second);
    // The old holder, back, renews nothing.
    expect(await take(store, 'a', T0 + 1_700)).toEqual(second);
    expect(await store.leases.read('dispatcher')).toEqual(second);
  });

  it('is released by its holder under its epoch only, for the next taker at once', async () => {
    await take(store, 'a', T0);
    await take(store, 'b', T0 + TTL);
    await store.leases.release({ name: 'dispatcher', holder: 'a', epoch: 1 });
    expect(await take(store, 'c', T0 + TTL + 1)).toMatchObject({ holder: 'b', epoch: 2 });
    await store.leases.release({ name: 'dispatcher', holder: 'b', epoch: 2 });
    expect(await take(store, 'c', T0 + TTL + 2)).toMatchObject({ holder: 'c', epoch: 3 });
  });

  it('goes to exactly one of many takers trying at once, from two connections', async () => {
    const other = await openStore(config);
    try {
      const tries = Array.from({ length: 8 }, (_, i) =>
        take(i % 2 ? other : store, `i${i}`, T0 + 10),
      );
      const answers = await Promise.all(tries);
      const holders = new Set(answers.map((lease) => lease.holder));
      expect(holders.size).toBe(1);
      expect(answers.every((lease) => lease.epoch === 1)).toBe(true);
      // Lapsed: again exactly one of them takes it, under the next epoch.
      const again = await Promise.all(
        Array.from({ length: 8 }, (_, i) => take(i % 2 ? other : store, `j${i}`, T0 + 5_000)),
      );
      expect(new Set(again.map((lease) => lease.holder)).size).toBe(1);
      expect(again.every((lease) => lease.epoch === 2)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("fences a claim by the lease: a lost lease claims nothing; the holder's gives jobs in turn", async () => {
    const jobs = await Promise.all([0, 1, 2].map(() => insertRunnable(store.jobs)));
    await take(store, 'a', T0);
    await take(store, 'b', T0 + TTL);
    const claim = {
      queue: 'p::default',
      limit: 3,
      queueMax: 3,
      serviceMax: 3,
      at: T0 + TTL + 1,
      owners: ['b', 'c'],
    };
    // a's lease lapsed and b took it: a, thawed, claims nothing.
    await expect(
      store.jobs.claimRunnable(
        { ...claim, owner: 'a', lease: { name: 'dispatcher', holder: 'a', epoch: 1 } },
        () => 'starting',
      ),
    ).rejects.toBeInstanceOf(LeaseLostError);
    for (const job of jobs) expect((await store.jobs.getJob(job.id))?.state).toBe('runnable');

    const claimed = await store.jobs.claimRunnable(
      { ...claim, owner: 'b', lease: { name: 'dispatcher', holder: 'b', epoch: 2 } },
      () => 'starting',
    );
    expect(claimed.map((job) => [job.id, job.state, job.owner])).toEqual([
      [jobs[0]!.id, 'starting', 'b'],
      [jobs[1]!.id, 'starting', 'c'],
      [jobs[2]!.id, 'starting', 'b'],
    ]);
    // Each assignee's ownership is fenced as a claim of its own would be.
    for (const job of claimed) expect(job.ownerEpoch).toBe(1);
    // Each claim's transition names its claimer and the lease epoch the store fenced it by: who
    // held the lease at each claim is read from the record, not from a clock.
    const recorded = await queryBeside<{ job_id: string; moved_by: string; lease_epoch: number }>(
      config,
      `SELECT job_id, moved_by, lease_epoch FROM job_transitions
        WHERE to_state = 'starting' ORDER BY seq`,
    );
    expect(recorded.map((row) => [row.job_id, row.moved_by, Number(row.lease_epoch)])).toEqual(
      jobs.map((job) => [job.id, 'b', 2]),
    );
  });

  it("holds the lease from a claim's check to its commit: a takeover cannot commit between", async () => {
    const job = await insertRunnable(store.jobs);
    await take(store, 'a', T0);
    const fence = { name: 'dispatcher', holder: 'a', epoch: 1 };
    const claim = { queue: 'p::default', limit: 1, queueMax: 1, serviceMax: 1, owner: 'a' };
    // a claims in a process of its own, frozen between the lease's check and the claim's commit.
    let pid: number | undefined;
    const claimer = runWorker(
      config,
      ['claim-once', '-', JSON.stringify({ ...claim, at: T0 + 1, lease: fence })],
      { JOBDECK_FAILPOINT: 'in-claim', JOBDECK_FAILPOINT_ACTION: 'freeze' },
      (spawned) => (pid = spawned),
    );
    // Meanwhile a's lease lapses on b's clock, and b takes it over: its write must wait for the
    // claim's commit (PostgreSQL), or find the database's one write lock held (SQLite).
    let takeover: 'committed' | 'refused' | undefined;
    let tried: Promise<unknown> | undefined;
    try {
      await until(() => pid !== undefined && stopped(pid), 'the claimer to freeze in its claim');
      tried = take(store, 'b', T0 + TTL + 1).then(
        () => (takeover = 'committed'),
        () => (takeover = 'refused'),
      );
      await until(
        async () => takeover !== undefined || (await leaseWriteWaits(config)),
        'the takeover to commit, fail or wait',
      );
      expect(takeover).not.toBe('committed');
      expect(await store.leases.read('dispatcher')).toMatchObject({ holder: 'a', epoch: 1 });
    } finally {
      // Thawed however the expectations came out: no stopped process is left behind.
      if (pid !== undefined) process.kill(pid, 'SIGCONT');
    }
    const exit = await claimer;
    expect(JSON.parse(exit.stdout)).toEqual({ claimed: [job.id] });
    await tried;
    // Committed after the claim (PostgreSQL), or refused while it was under way (SQLite, busy).
    if (takeover === 'committed') {
      expect(await store.leases.read('dispatcher')).toMatchObject({ holder: 'b', epoch: 2 });
    }
    const recorded = await queryBeside<{ lease_epoch: number }>(
      config,
      `SELECT lease_epoch FROM job_transitions WHERE to_state = 'starting'`,
    );
    expect(recorded.map((row) => Number(row.lease_epoch))).toEqual([1]);
  });
});
