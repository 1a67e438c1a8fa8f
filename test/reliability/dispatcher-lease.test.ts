import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ContainerStarts } from '../support/engine-events';
import { createDatabase } from '../support/postgres';
import { printLastLines, startService, testProjects, type TestService } from '../support/service';
import { submit, waitForState } from '../support/jobs';
import { budget, recordFigure } from './figures';

/**
 * One dispatcher at a time, on PostgreSQL with three real processes and one Docker Engine: the
 * holder of the dispatcher lease alone claims (every claim's transition names its claimer and the
 * lease epoch the store fenced it by), the jobs it
 * claims run on every instance, and a kill -9 of the holder under load gives the lease to
 * another within 2 s, every job run exactly once. A holder frozen past its lease and thawed
 * claims nothing more.
 */
const INSTANCE_TIMEOUT_S = 6;

const starts = new ContainerStarts();
let services: TestService[] = [];
let db: pg.Client | undefined;

beforeAll(() => starts.started());
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') printLastLines(services);
  for (const service of services) await service.stop('SIGKILL');
  services = [];
  await db?.end();
  db = undefined;
});
afterAll(() => starts.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function threeInstances(): Promise<TestService[]> {
  const url = await createDatabase();
  db = new pg.Client({ connectionString: url });
  await db.connect();
  const projects = testProjects();
  (projects.t.queues as Record<string, object>).wide = { max_running: 12 };
  const settings = {
    store: { type: 'postgres', url },
    projects,
    max_running: 12,
    reconcile_interval_seconds: 1,
    instance_timeout_seconds: INSTANCE_TIMEOUT_S,
  };
  for (let i = 0; i < 3; i += 1) services.push(await startService(settings));
  return services;
}

/** The lease as stored: its holder (an instance id names its pid: host-pid-random) and epoch. */
async function lease(): Promise<{ holder: string; epoch: number; expiresAt: number } | undefined> {
  const { rows } = await db!.query<{ holder: string; epoch: number; expires_at: string }>(
    "SELECT holder, epoch, expires_at FROM leases WHERE name = 'dispatcher'",
  );
  const row = rows[0];
  return row && { holder: row.holder, epoch: row.epoch, expiresAt: Number(row.expires_at) };
}

async function holderNow(timeoutMs = 20_000): Promise<{ holder: string; epoch: number }> {
  for (const until = Date.now() + timeoutMs; ; await sleep(50)) {
    const now = await lease();
    if (now && now.expiresAt > Date.now()) return now;
    if (Date.now() > until) throw new Error('no instance took the dispatcher lease');
  }
}

interface ClaimRecord {
  jobId: string;
  by: string;
  at: number;
  /** The lease epoch the store fenced the claim by, in its transaction; null: not fenced. */
  leaseEpoch: number | null;
}

/**
 * Claims not made by the lease's holder of the moment. The store records on each claim's
 * transition the epoch it checked, in the claim's transaction, against the lease's holder: an
 * epoch has one holder (raised at every change of holder), so a claim without an epoch, or under
 * an epoch another instance claimed under (or `known` names for another), was not its holder's.
 */
function claimsByNonHolders(made: ClaimRecord[], known: { holder: string; epoch: number }) {
  const holderOf = new Map([[known.epoch, known.holder]]);
  for (const claim of made) {
    if (claim.leaseEpoch !== null && !holderOf.has(claim.leaseEpoch)) {
      holderOf.set(claim.leaseEpoch, claim.by);
    }
  }
  return made.filter(
    (claim) => claim.leaseEpoch === null || holderOf.get(claim.leaseEpoch) !== claim.by,
  );
}

const serviceOf = (id: string) => services.find((s) => s.pid() === Number(id.split('-').at(-2)));

/** Who made each claim (runnable → starting) of these jobs, when, and under which lease epoch. */
async function claims(ids: string[]): Promise<ClaimRecord[]> {
  const { rows } = await db!.query<{
    job_id: string;
    moved_by: string;
    at: string;
    lease_epoch: number | null;
  }>(
    `SELECT job_id, moved_by, at, lease_epoch FROM job_transitions
      WHERE job_id = ANY($1) AND from_state = 'runnable' AND to_state = 'starting'
      ORDER BY seq`,
    [ids],
  );
  return rows.map((r) => ({
    jobId: r.job_id,
    by: r.moved_by,
    at: Number(r.at),
    leaseEpoch: r.lease_epoch,
  }));
}

/**
 * Each job claimed once, and once more after each time it went back to `runnable` from
 * `starting`: a job claimed for the killed instance whose container it never created is given
 * back by the survivor that takes it over (notes.requeuedNeverCreated) and claimed again.
 */
async function expectOneClaimPerTurn(ids: string[], made: ClaimRecord[]): Promise<void> {
  const { rows } = await db!.query<{ job_id: string }>(
    `SELECT job_id FROM job_transitions
      WHERE job_id = ANY($1) AND from_state = 'starting' AND to_state = 'runnable'`,
    [ids],
  );
  const turns = new Map(ids.map((id) => [id, 1]));
  for (const { job_id } of rows) turns.set(job_id, turns.get(job_id)! + 1);
  const claimed = new Map(ids.map((id) => [id, 0]));
  for (const claim of made) claimed.set(claim.jobId, claimed.get(claim.jobId)! + 1);
  expect(ids.filter((id) => claimed.get(id) !== turns.get(id))).toEqual([]);
}

async function expectEachRunOnce(ids: string[]): Promise<void> {
  const startsByJob = await starts.byJob();
  expect(ids.filter((id) => startsByJob.get(id) !== 1)).toEqual([]);
  const { rows } = await db!.query<{ job_id: string; n: string }>(
    `SELECT job_id, count(*) AS n FROM job_transitions
      WHERE job_id = ANY($1) AND to_state IN ('completed','failed','timeout','cancelled','error')
      GROUP BY job_id`,
    [ids],
  );
  const finals = new Map(rows.map((r) => [r.job_id, Number(r.n)]));
  expect(ids.filter((id) => finals.get(id) !== 1)).toEqual([]);
}

describe('the dispatcher lease (PostgreSQL, three instances, one Docker Engine)', () => {
  it('kill -9 of the dispatcher under load: another within 2 s, only the holder claims, each job run once', async () => {
    const jobs = budget({ ci: 60, full: 600 });
    await threeInstances();
    const firstLease = await holderNow();
    const first = firstLease.holder;
    const victim = serviceOf(first)!;
    expect(victim).toBeDefined();
    const survivors = services.filter((s) => s !== victim);
    const post = (to: TestService) =>
      submit(to, { job_definition: 't::echo:1', job_queue: 't::wide' });

    // Under load: half the jobs submitted to every instance, then the kill while they dispatch.
    const before = await Promise.all(
      Array.from({ length: jobs / 2 }, (_, i) => post(services[i % 3]!)),
    );
    await victim.stop('SIGKILL');
    const killedAt = Date.now();
    const after = survivors.map(async (to, s) => {
      const ids: string[] = [];
      for (let i = s; i < jobs / 2; i += 2) ids.push(await post(to));
      return ids;
    });
    for (;;) {
      const now = await lease();
      if (now && now.holder !== first && now.expiresAt > Date.now()) break;
      if (Date.now() - killedAt > 10_000) throw new Error('no new dispatcher within 10 s');
      await sleep(20);
    }
    const newDispatcherMs = Date.now() - killedAt;
    const ids = [...before, ...(await Promise.all(after)).flat()];
    for (const id of ids) await waitForState(survivors[0]!, id, 'completed', 5 * 60_000, 250);

    expect(newDispatcherMs).toBeLessThan(2_000);
    await expectEachRunOnce(ids);
    // Only the holder of the moment claimed (on a loaded machine a starved holder may lose the
    // lease to another: each claim is still its holder's of the moment).
    const made = await claims(ids);
    await expectOneClaimPerTurn(ids, made);
    expect(claimsByNonHolders(made, firstLease)).toEqual([]);
    expect(made.filter((c) => c.by === first && c.at > killedAt)).toEqual([]);
    // The claims' jobs ran on every instance, the dead one's taken over by the survivors.
    const { rows } = await db!.query<{ owner: string }>(
      'SELECT DISTINCT owner FROM job_transitions t JOIN jobs j ON j.id = t.job_id WHERE j.id = ANY($1)',
      [ids],
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    recordFigure(
      '3 instances on PostgreSQL: kill -9 of the dispatcher under load',
      `new dispatcher in ${newDispatcherMs} ms; ${ids.length} jobs completed once each, claimed by the lease holder alone`,
    );
  });

  it('a holder frozen past its lease and thawed claims nothing; the new holder dispatches', async () => {
    await threeInstances();
    const firstLease = await holderNow();
    const first = firstLease.holder;
    const stale = serviceOf(first)!;
    process.kill(stale.pid(), 'SIGSTOP');
    const frozenAt = Date.now();
    let ids: string[] = [];
    try {
      const others = services.filter((s) => s !== stale);
      for (const until = Date.now() + 10_000; (await lease())?.holder === first; await sleep(50)) {
        if (Date.now() > until) throw new Error('nobody took the lease of the frozen holder');
      }
      ids = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          submit(others[i % 2]!, { job_definition: 't::echo:1', job_queue: 't::wide' }),
        ),
      );
    } finally {
      // Thawed before the instance timeout: its heartbeat is late, its jobs still its own.
      process.kill(stale.pid(), 'SIGCONT');
    }
    expect(Date.now() - frozenAt).toBeLessThan(INSTANCE_TIMEOUT_S * 1000);
    // Thawed, it submits too: the new holder claims what it is given.
    ids.push(
      ...(await Promise.all(
        Array.from({ length: 6 }, () =>
          submit(stale, { job_definition: 't::echo:1', job_queue: 't::wide' }),
        ),
      )),
    );
    for (const id of ids) await waitForState(stale, id, 'completed', 2 * 60_000, 250);
    await expectEachRunOnce(ids);
    const made = await claims(ids);
    await expectOneClaimPerTurn(ids, made);
    expect(made.filter((c) => c.by === first)).toEqual([]);
    expect(claimsByNonHolders(made, firstLease)).toEqual([]);
    // Thawed, it may take the lease again only after the holder lets it lapse: a new epoch then.
    expect(stale.output()).toContain('this instance stops dispatching');
  });
});
