import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Job } from '../../server/jobs/model';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS, type StoreConfig } from './drivers';
import { insertRunnable, newJob, T0 } from './new-job';

/**
 * The change feed's commit-order horizon on PostgreSQL, where a transaction takes its change's
 * seq when it inserts and commits later: held open by a second session, its seq holds the
 * horizon back for as long as it is open, and no later change is read past it.
 */
const postgres = DRIVERS.find((driver) => driver.name === 'postgres')!;

describe('the change horizon on PostgreSQL', () => {
  let config: StoreConfig;
  let store: Store;
  let late: pg.Client;
  beforeEach(async () => {
    config = await postgres.fresh();
    store = await openStore(config);
    late = new pg.Client({ connectionString: (config.store as { url: string }).url });
    await late.connect();
  });
  afterEach(async () => {
    await late.end();
    await store.close();
  });

  async function runnable(): Promise<Job> {
    const job = newJob();
    await store.jobs.insertJob(job, 'fingerprint');
    return (await store.jobs.moveJob({
      id: job.id,
      from: 'submitted',
      to: 'runnable',
      at: T0 + 1,
      note: null,
    }))!;
  }

  /** Cancels `job` in a transaction of the second session, left open; returns its change's seq. */
  async function cancelHeldOpen(job: Job): Promise<number> {
    await late.query('BEGIN');
    await late.query(`UPDATE jobs SET state = 'cancelled' WHERE id = $1`, [job.id]);
    const { rows } = await late.query<{ seq: string }>(
      `INSERT INTO job_transitions (job_id, from_state, to_state, at)
       VALUES ($1, 'runnable', 'cancelled', $2) RETURNING seq`,
      [job.id, T0 + 2],
    );
    return Number(rows[0]!.seq);
  }

  const moveOn = (job: Job) =>
    store.jobs.moveJob({ id: job.id, from: 'runnable', to: 'starting', at: T0 + 3, note: null });

  /**
   * Looks until the horizon reaches `seq`: the cluster is shared with other tests, whose
   * transactions (in other databases) hold it back for moments too.
   */
  async function settlesAt(seq: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    let settled = (await store.jobs.changeHorizon()).settled;
    while (settled < seq && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      settled = (await store.jobs.changeHorizon()).settled;
    }
    expect(settled).toBe(seq);
  }

  it('stays below a seq whose transaction is open, then passes it once it commits', async () => {
    const held = await runnable();
    const other = await runnable();
    // The first looks (the feed's waits for what is under way then), the feed's and the trends'.
    const before = (await store.jobs.changeHorizon()).settled;
    await store.trends.changesAfter({ afterSeq: 0, limit: 1 });
    const seq = await cancelHeldOpen(held);
    await moveOn(other);
    const last = await store.jobs.lastChangeSeq();
    expect(last).toBeGreaterThan(seq);
    for (let look = 0; look < 5; look++) {
      expect(await store.jobs.changeHorizon()).toEqual({ settled: before, pending: true });
      // Nor do the trends read past it.
      const changes = await store.trends.changesAfter({ afterSeq: 0, limit: 100 });
      expect(changes.map((c) => c.seq).filter((s) => s >= seq)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await late.query('COMMIT');
    await settlesAt(last);
    const deadline = Date.now() + 10_000;
    let trends: number[] = [];
    while (!trends.includes(seq) && Date.now() < deadline) {
      trends = (await store.trends.changesAfter({ afterSeq: 0, limit: 100 })).map((c) => c.seq);
    }
    expect(trends).toContain(seq);
  });

  it('passes a seq whose transaction rolled back', async () => {
    const held = await runnable();
    const other = await runnable();
    const before = (await store.jobs.changeHorizon()).settled;
    await cancelHeldOpen(held);
    await moveOn(other);
    expect(await store.jobs.changeHorizon()).toEqual({ settled: before, pending: true });
    await late.query('ROLLBACK');
    await settlesAt(await store.jobs.lastChangeSeq());
  });

  it("waits, on a process's first look, for the transactions under way to end", async () => {
    const held = await runnable();
    const seq = await cancelHeldOpen(held);
    const second = await openStore(config);
    try {
      let answered = false;
      const first = second.jobs.changeHorizon().then((horizon) => {
        answered = true;
        return horizon;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(answered).toBe(false);
      await late.query('COMMIT');
      // Then it goes on: past the held seq once nothing under way holds it back.
      let settled = (await first).settled;
      const deadline = Date.now() + 10_000;
      while (settled < seq && Date.now() < deadline) {
        settled = (await second.jobs.changeHorizon()).settled;
      }
      expect(settled).toBeGreaterThanOrEqual(seq);
    } finally {
      await second.close();
    }
  });
});

describe('migration 038 on PostgreSQL, with a change in flight', () => {
  it('goes on from the last number taken: no change lost, none numbered twice', async () => {
    const config = await postgres.fresh();
    const store = await openStore(config);
    const job = await insertRunnable(store.jobs);
    await store.close();
    const url = (config.store as { url: string }).url;
    const late = new pg.Client({ connectionString: url });
    await late.connect();
    try {
      // 038 undone, as in a store written before it: the identity column, number 3 taken and
      // rolled back (a number handed out must never be handed out again).
      await late.query(`ALTER TABLE job_transitions ALTER COLUMN seq DROP DEFAULT;
        DROP SEQUENCE job_transitions_change_seq;
        ALTER TABLE job_transitions ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (START WITH 3);
        DELETE FROM schema_migrations WHERE name = '038-change-order';`);
      const change = (to: string) =>
        late.query(
          `INSERT INTO job_transitions (job_id, from_state, to_state, at) VALUES ($1, 'runnable', $2, 0)`,
          [job.id, to],
        );
      await late.query('BEGIN');
      await change('lost');
      await late.query('ROLLBACK');
      // A change under way when the upgraded instance starts: the migration waits for it.
      await late.query('BEGIN');
      await change('cancelled');
      const upgrading = openStore(config);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await late.query('COMMIT');
      const upgraded = await upgrading;
      try {
        expect(upgraded.migrated).toEqual(['038-change-order']);
        await upgraded.jobs.moveJob({
          id: job.id,
          from: 'runnable',
          to: 'cancelled',
          at: T0 + 2,
          note: null,
        });
        // An event id or cursor given before (seq 2) resumes with exactly what came after.
        const after = await upgraded.jobs.changesAfter({
          project: 'p',
          afterSeq: 2,
          uptoSeq: (await upgraded.jobs.changeHorizon()).settled,
          limit: 10,
        });
        expect(after.map((c) => [c.seq, c.transition.to])).toEqual([
          [4, 'cancelled'],
          [5, 'cancelled'],
        ]);
      } finally {
        await upgraded.close();
      }
    } finally {
      await late.end();
    }
  });
});
