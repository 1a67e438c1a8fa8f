import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIST_SORT_FIELDS } from '../../contract';
import { sortKeyOf } from '../../server/jobs/list-order';
import type { Job, NewJob } from '../../server/jobs/model';
import type { JobListFilter, ListOrder } from '../../server/jobs/list-filter';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { newJob, T0 } from './new-job';

const ORDERS: ListOrder[] = LIST_SORT_FIELDS.flatMap((field) => [
  { field, descending: false },
  { field, descending: true },
]);

describe.each(DRIVERS)('the sorted job list on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  async function insert(overrides: Partial<NewJob> = {}): Promise<Job> {
    const job = newJob(overrides);
    await store.jobs.insertJob(job, 'fingerprint');
    return (await store.jobs.getJob(job.id))!;
  }

  async function move(job: Job, to: Job['state'], at: number, fields = {}): Promise<Job> {
    const moved = await store.jobs.moveJob({
      id: job.id,
      from: job.state,
      to,
      at,
      note: null,
      fields,
    });
    expect(moved?.state).toBe(to);
    return moved!;
  }

  async function start(job: Job, startedAt: number): Promise<Job> {
    const runnable = await move(job, 'runnable', startedAt - 2);
    const starting = await move(runnable, 'starting', startedAt - 1);
    return move(starting, 'running', startedAt, { startedAt });
  }

  /** 24 jobs: waiting, running and ended, with ties in every key (created, started, ended, duration). */
  async function mixedJobs(): Promise<Job[]> {
    const jobs: Job[] = [];
    for (let i = 0; i < 24; i += 1) {
      let job = await insert({ createdAt: T0 + (i % 8) * 1_000 });
      if (i % 3 === 0) job = await start(job, T0 + 60_000 + (i % 4) * 1_000);
      if (i % 3 === 0 && i % 2 === 0) {
        const ended = job.startedAt! + (i % 5) * 500;
        job = await move(job, i % 4 ? 'failed' : 'completed', ended, { finishedAt: ended });
      }
      if (i % 7 === 1) job = await move(job, 'cancelled', T0 + 90_000);
      jobs.push(job);
    }
    return jobs;
  }

  /** What the list must give: by key with the jobs without one last, ties by seq, in the order's direction. */
  function expected(jobs: Job[], order: ListOrder): string[] {
    const sign = order.descending ? -1 : 1;
    return jobs
      .map((job) => ({ job, key: sortKeyOf(job, order.field) }))
      .sort((a, b) => {
        if ((a.key === null) !== (b.key === null)) return a.key === null ? 1 : -1;
        return sign * ((a.key ?? 0) - (b.key ?? 0) || a.job.seq - b.job.seq);
      })
      .map(({ job }) => job.id);
  }

  /** Every page of a sorted list, each after the last job of the one before, as a cursor holds it. */
  async function walkPages(
    order: ListOrder,
    between: (page: number) => Promise<void> = async () => {},
    filter: Partial<JobListFilter> = {},
  ): Promise<string[]> {
    const seen: string[] = [];
    let after: JobListFilter['after'];
    for (let page = 0; page < 50; page += 1) {
      const jobs = await store.jobs.listJobs({
        project: 'p',
        limit: 5,
        sort: order,
        after,
        ...filter,
      });
      seen.push(...jobs.map((job) => job.id));
      if (jobs.length < 5) return seen;
      const last = jobs.at(-1)!;
      after = { key: sortKeyOf(last, order.field), seq: last.seq };
      await between(page);
    }
    throw new Error('the walk did not end');
  }

  it.each(ORDERS)('pages through every job by $field (descending: $descending)', async (order) => {
    const jobs = await mixedJobs();
    await insert({ project: 'q', queue: 'q::default' });
    expect(await walkPages(order)).toEqual(expected(jobs, order));
  });

  it.each(ORDERS)(
    'never skips nor repeats a job whose key holds while others are inserted and end ($field, descending: $descending)',
    async (order) => {
      const jobs = await mixedJobs();
      const running = jobs.filter((job) => job.state === 'running');
      const moved = new Set<string>();
      const seen = await walkPages(order, async (page) => {
        await insert({ createdAt: T0 + 500 + page });
        await start(await insert({ createdAt: T0 + 700 + page }), T0 + 61_500);
        const ending = running[page];
        if (ending) {
          moved.add(ending.id);
          const at = T0 + 120_000 + page;
          await move(ending, 'completed', at, { finishedAt: at });
        }
      });
      const steady = expected(jobs, order).filter((id) => !moved.has(id));
      expect(seen.filter((id) => steady.includes(id))).toEqual(steady);
    },
  );

  it('filters by when jobs ended, alone and with a sort', async () => {
    const jobs = await mixedJobs();
    const ended = jobs.filter((job) => job.finishedAt !== null);
    const after = T0 + 60_500;
    const before = T0 + 63_000;
    const inRange = ended.filter((job) => job.finishedAt! > after && job.finishedAt! < before);
    expect(inRange.length).toBeGreaterThan(1);
    expect(inRange.length).toBeLessThan(ended.length);
    const filter = { project: 'p', endedAfter: after, endedBefore: before };
    const listed = await store.jobs.listJobs({ ...filter, limit: 50 });
    expect(listed.map((job) => job.id).sort()).toEqual(inRange.map((job) => job.id).sort());
    expect(await store.jobs.countJobs(filter, 100)).toBe(inRange.length);
    const order: ListOrder = { field: 'ended_at', descending: true };
    expect(await walkPages(order, undefined, { endedAfter: after, endedBefore: before })).toEqual(
      expected(inRange, order),
    );
  });
});
