import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JobState } from '../../contract';
import { ContainerStarts } from '../support/engine-events';
import { createDatabase } from '../support/postgres';
import { printLastLines, startService, testProjects, type TestService } from '../support/service';
import { movedAt, submit, waitForState } from '../support/jobs';
import { budget, recordFigure } from './figures';

/**
 * Three instances on one PostgreSQL store and one engine: whatever instance a client reaches and
 * whichever dies, no job is lost, none starts twice, and the limits hold across all of them.
 */
const QUEUE_MAX = 4;
const SERVICE_MAX = 6;
const INSTANCE_TIMEOUT_S = 6;
const SLOT_STATES: JobState[] = ['starting', 'running', 'cancelling'];

const starts = new ContainerStarts();
let services: TestService[] = [];
let db: pg.Client | undefined;

beforeAll(() => starts.started());
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') printLastLines(services);
  for (const service of services) await service.stop();
  services = [];
  await db?.end();
  db = undefined;
});
afterAll(() => starts.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function threeInstances(
  limits = { queueMax: QUEUE_MAX, instanceTimeoutS: INSTANCE_TIMEOUT_S },
): Promise<TestService[]> {
  const url = await createDatabase();
  db = new pg.Client({ connectionString: url });
  await db.connect();
  const projects = testProjects();
  (projects.t.queues as Record<string, object>).shared = { max_running: limits.queueMax };
  (projects.t.queues as Record<string, object>).other = { max_running: limits.queueMax };
  const settings = {
    store: { type: 'postgres', url },
    projects,
    max_running: SERVICE_MAX,
    reconcile_interval_seconds: 1,
    instance_timeout_seconds: limits.instanceTimeoutS,
  };
  // One after the other: the first creates the schema, the others find it done.
  for (let i = 0; i < 3; i += 1) services.push(await startService(settings));
  return services;
}

/** Slots held now, per queue and in all, as the store says: the limits must hold at every sample. */
async function slotsHeld(): Promise<{ byQueue: Map<string, number>; total: number }> {
  const { rows } = await db!.query<{ queue: string; n: string }>(
    // An array's parent sums up its children and holds no slot.
    'SELECT queue, count(*) AS n FROM jobs WHERE state = ANY($1) AND array_size IS NULL GROUP BY queue',
    [SLOT_STATES],
  );
  const byQueue = new Map(rows.map((r) => [r.queue, Number(r.n)]));
  return { byQueue, total: [...byQueue.values()].reduce((a, b) => a + b, 0) };
}

/**
 * The jobs of `ids` not completed, each with its state, owner and moves, and the containers it
 * has: what a deadline's error says, so a hang in CI can be read from its log.
 */
async function whereStuck(ids: string[]): Promise<string> {
  const { rows } = await db!.query<{
    id: string;
    state: string;
    owner: string | null;
    moves: string;
  }>(
    `SELECT j.id, j.state, j.owner,
            string_agg(t.to_state || coalesce(' (' || t.note || ')', ''), ' → ' ORDER BY t.seq) AS moves
       FROM jobs j JOIN job_transitions t ON t.job_id = j.id
      WHERE j.id = ANY($1)
        AND j.state <> 'completed'
      GROUP BY j.id, j.state, j.owner`,
    [ids],
  );
  const containers = execFileSync('docker', ['ps', '-a', '--format', '{{.Names}} {{.Status}}'])
    .toString()
    .split('\n')
    .filter((line) => rows.some((row) => line.includes(row.id)));
  return [
    ...rows.map((row) => `${row.id} ${row.state} (owner ${row.owner ?? 'none'}): ${row.moves}`),
    `containers: ${containers.join('; ') || 'none'}`,
  ].join('\n');
}

async function finalStatesOf(ids: string[]): Promise<Map<string, number>> {
  const { rows } = await db!.query<{ job_id: string; n: string }>(
    `SELECT job_id, count(*) AS n FROM job_transitions
      WHERE job_id = ANY($1) AND to_state IN ('completed','failed','timeout','cancelled','error')
      GROUP BY job_id`,
    [ids],
  );
  return new Map(rows.map((r) => [r.job_id, Number(r.n)]));
}

describe('three instances on one PostgreSQL', () => {
  it('race: jobs submitted round-robin each run once, within the limits at every moment', async () => {
    const jobs = budget({ ci: 90, full: 2000 });
    const instances = await threeInstances();
    let sampling = true;
    let mostInQueue = 0;
    let mostInAll = 0;
    let samples = 0;
    const sampler = (async () => {
      while (sampling) {
        const held = await slotsHeld();
        mostInQueue = Math.max(mostInQueue, ...held.byQueue.values(), 0);
        mostInAll = Math.max(mostInAll, held.total);
        samples += 1;
        await sleep(100);
      }
    })();

    const started = Date.now();
    const ids: string[] = [];
    for (let batch = 0; batch < jobs; batch += 30) {
      const size = Math.min(30, jobs - batch);
      ids.push(
        ...(await Promise.all(
          Array.from({ length: size }, (_, i) =>
            submit(instances[(batch + i) % 3]!, {
              job_definition: 't::echo:1',
              job_queue: (batch + i) % 2 ? 't::shared' : 't::other',
            }),
          ),
        )),
      );
    }
    for (const [i, id] of ids.entries()) {
      await waitForState(instances[i % 3]!, id, 'completed', 20 * 60_000, 250);
    }
    const seconds = (Date.now() - started) / 1000;
    sampling = false;
    await sampler;

    expect(new Set(ids).size).toBe(jobs);
    const startsByJob = await starts.byJob();
    expect(ids.filter((id) => startsByJob.get(id) === 1)).toHaveLength(jobs);
    const finals = await finalStatesOf(ids);
    expect(ids.filter((id) => finals.get(id) === 1)).toHaveLength(jobs);
    expect(mostInQueue).toBeLessThanOrEqual(QUEUE_MAX);
    expect(mostInAll).toBeLessThanOrEqual(SERVICE_MAX);
    const { rows } = await db!.query<{ owner: string; n: string }>(
      'SELECT owner, count(*) AS n FROM jobs GROUP BY owner',
    );
    recordFigure(
      `3 instances on PostgreSQL: ${jobs} jobs round-robin`,
      `${jobs} of ${jobs} completed once, 1 container each; most slots held ${mostInQueue}/${QUEUE_MAX} per queue, ${mostInAll}/${SERVICE_MAX} in all over ${samples} samples; run by ${rows.length} instances (${rows.map((r) => r.n).join('/')}); ${(jobs / seconds).toFixed(1)} jobs/s`,
    );
  });

  it('crash: one instance frozen, then killed, with jobs in every state; a survivor takes over; nothing lost or run twice', async () => {
    const perState = budget({ ci: 10, full: 100 });
    const instances = await threeInstances();
    // Held jobs keep their slots until the test lets them go (a file it makes in each).
    const hold = 'while [ ! -e /tmp/release ]; do sleep 0.2; done; echo done';
    const ids: string[] = [];
    const post = (i: number, extra: object) =>
      submit(instances[i % 3]!, { job_definition: 't::sh:1', job_queue: 't::shared', ...extra });
    for (let i = 0; i < 2 * perState; i += 1) {
      ids.push(await post(i, { container_cmd_parameter: { script: hold } }));
    }
    // Retried across the takeover: the first attempt fails at once, the second is held.
    const retried: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      retried.push(
        await post(i, {
          container_cmd_parameter: { script: `[ "$JOBDECK_ATTEMPT" -ge 2 ] || exit 3; ${hold}` },
          retry: { attempts: 2, backoff: { initial_seconds: 0, jitter: 0 } },
        }),
      );
    }
    // An array whose children are held across the takeover like the jobs above.
    const array = await post(2, { container_cmd_parameter: { script: hold }, array: { size: 4 } });
    const childrenResponse = await instances[0]!.request('GET', `/v1/client/job/${array}/array`);
    const children = (childrenResponse.body.data as { items: { id: string }[] }).items.map(
      (child) => child.id,
    );
    expect(children).toHaveLength(4);
    const held = [...ids, ...retried, ...children];
    // Waiting across the takeover for held jobs to complete (afterok).
    const dependents: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      dependents.push(
        await post(i + 1, {
          container_cmd_parameter: { script: 'echo done' },
          depends_on: [{ job_id: held[i]! }, { job_id: retried[i]! }],
        }),
      );
    }
    ids.push(...retried, ...dependents, ...children, array);
    // Still pending when the victim freezes (filling the queue and the takeover take seconds), so
    // the survivors take over jobs in every state; the figure says how many were.
    const later = Date.now() / 1000 + budget({ ci: 30, full: 120 });
    for (let i = 0; i < perState; i += 1) {
      ids.push(
        await post(i, { container_cmd_parameter: { script: 'echo done' }, schedule_at: later }),
      );
    }
    for (const deadline = Date.now() + 120_000; (await slotsHeld()).total < QUEUE_MAX;) {
      if (Date.now() > deadline) throw new Error('the queue never filled');
      await sleep(200);
    }
    const ownedBy = async (owner: string) =>
      Number(
        (
          await db!.query<{ n: string }>(
            'SELECT count(*) AS n FROM jobs WHERE owner = $1 AND state = ANY($2)',
            [owner, SLOT_STATES],
          )
        ).rows[0]!.n,
      );
    // The victim: the instance holding the most slots (whoever claimed first may hold them all).
    const { rows: holders } = await db!.query<{ owner: string; pid: number; n: string }>(
      `SELECT j.owner, i.pid, count(*) AS n FROM jobs j JOIN instances i ON i.id = j.owner
        WHERE j.state = ANY($1) GROUP BY j.owner, i.pid ORDER BY n DESC`,
      [SLOT_STATES],
    );
    const victimId = holders[0]!.owner;
    const victim = instances.find((service) => service.pid() === holders[0]!.pid)!;
    const survivors = instances.filter((service) => service !== victim);
    const victimHeld = await ownedBy(victimId);

    // Frozen first (a paused VM, a partition): alive to the OS, silent to the store, so only the
    // instance timeout tells the others. (A process of the same machine that is gone is taken
    // over at once, by its pid: the restart tests show that path.)
    const pendingAtFreeze = Number(
      (await db!.query<{ n: string }>("SELECT count(*) AS n FROM jobs WHERE state = 'pending'"))
        .rows[0]!.n,
    );
    const frozenAt = Date.now();
    process.kill(victim.pid(), 'SIGSTOP');
    for (const deadline = Date.now() + 120_000; (await ownedBy(victimId)) > 0; await sleep(100)) {
      if (Date.now() > deadline) throw new Error('nobody took over the lost instance’s jobs');
    }
    const takeoverMs = Date.now() - frozenAt;
    await victim.stop('SIGKILL');
    // Let every held job go, as they come to run, until each has ended: the survivors must finish
    // all of them. A job is let go again on every sweep until it ends, never just once: a retried
    // job's first attempt runs for a moment before it fails, and a release that reached only that
    // container would hold the second attempt forever. The deadline is well within the test's own
    // timeout, so a hang fails saying where every job stands (35 s for the whole test is usual).
    for (const deadline = Date.now() + 5 * 60_000; ; await sleep(300)) {
      const ended = await finalStatesOf(held);
      const waiting = held.filter((id) => !ended.has(id));
      if (waiting.length === 0) break;
      if (Date.now() > deadline) {
        throw new Error(`${waiting.length} held jobs never ended:\n${await whereStuck(waiting)}`);
      }
      for (const id of waiting) {
        try {
          execFileSync('docker', ['exec', `jobdeck-${id}`, 'touch', '/tmp/release'], {
            stdio: 'ignore',
          });
        } catch {
          // not running yet, or ending
        }
      }
    }
    await victim.restart();
    for (const deadline = Date.now() + 5 * 60_000; ; await sleep(250)) {
      const finals = await finalStatesOf(ids);
      if (ids.every((id) => finals.has(id))) break;
      if (Date.now() > deadline) {
        throw new Error(`not every job ended:\n${await whereStuck(ids)}`);
      }
    }
    for (const [i, id] of ids.entries()) {
      await waitForState(survivors[i % 2]!, id, 'completed');
    }
    const startsByJob = await starts.byJob();
    const startsWanted = (id: string) => (retried.includes(id) ? 2 : id === array ? undefined : 1);
    expect(ids.filter((id) => startsByJob.get(id) === startsWanted(id))).toHaveLength(ids.length);
    for (const id of retried) {
      const attempts = await survivors[0]!.request('GET', `/v1/client/job/${id}/attempts`);
      const items = (attempts.body.data as { items: { state: string }[] }).items;
      expect(items.map((a) => a.state)).toEqual(['failed', 'completed']);
    }
    // Each dependent started only after both jobs it waited for completed.
    for (const [i, id] of dependents.entries()) {
      const startedAt = await movedAt(survivors[0]!, id, 'starting');
      for (const before of [held[i]!, retried[i]!]) {
        expect(startedAt).toBeGreaterThanOrEqual(await movedAt(survivors[0]!, before, 'completed'));
      }
    }
    const finals = await finalStatesOf(ids);
    expect(ids.filter((id) => finals.get(id) === 1)).toHaveLength(ids.length);
    recordFigure(
      `3 instances on PostgreSQL: one frozen then killed, holding ${victimHeld} of ${ids.length} jobs`,
      `taken over in ${takeoverMs} ms (instance timeout ${INSTANCE_TIMEOUT_S} s); ${pendingAtFreeze} still pending at the freeze; ${ids.length} of ${ids.length} completed once, 1 container each (2 retried: 2 attempts each; 2 waiting on dependencies, started after them; an array of 4 completed with its children)`,
    );
  });
  it('takeover of a live instance, then a kill: every job ends once, none stalls in starting', async () => {
    const jobs = budget({ ci: 150, full: 300 });
    // The setting: a short instance timeout and a queue of six, so a late heartbeat under
    // the burst has a live instance taken over, and a kill has a third adopt what it held.
    const instances = await threeInstances({ queueMax: 6, instanceTimeoutS: 5 });
    const ids = await Promise.all(
      Array.from({ length: jobs }, (_, i) =>
        submit(instances[i % 3]!, {
          job_definition: 't::sh:1',
          job_queue: 't::shared',
          container_cmd_parameter: { script: 'sleep 0.3; echo done' },
        }),
      ),
    );
    const ownersNow = async () =>
      (
        await db!.query<{ owner: string; pid: number; n: string }>(
          `SELECT j.owner, i.pid, count(*) AS n FROM jobs j JOIN instances i ON i.id = j.owner
            WHERE j.state = ANY($1) GROUP BY j.owner, i.pid ORDER BY n DESC`,
          [SLOT_STATES],
        )
      ).rows;
    const byPid = (pid: number) => instances.find((service) => service.pid() === pid)!;
    for (
      const deadline = Date.now() + 120_000;
      (await ownersNow()).length === 0;
      await sleep(100)
    ) {
      if (Date.now() > deadline) throw new Error('no job ever took a slot');
    }
    // A heartbeat made late on purpose, twice: the busiest instance goes on working while its
    // heartbeat reads a minute old, so the others take its jobs over while it is alive and acting
    // on them (as under a burst); then it stops dead past the store's idle-in-transaction timeout
    // (a paused VM), maybe between a container's create and its start, and goes on as if nothing
    // happened.
    const { owner: lateId, pid: latePid } = (await ownersNow())[0]!;
    const late = byPid(latePid);
    for (const until = Date.now() + 3000; Date.now() < until; await sleep(200)) {
      await db!.query('UPDATE instances SET heartbeat_at = $1 WHERE id = $2', [
        Date.now() - 60_000,
        lateId,
      ]);
    }
    await sleep(1500);
    process.kill(late.pid(), 'SIGSTOP');
    await sleep(6500);
    process.kill(late.pid(), 'SIGCONT');
    await sleep(2500);
    // Then a kill of another that holds jobs now, mid-run: the third adopts what it held.
    const holders = await ownersNow();
    const victim = byPid((holders.find((h) => h.pid !== late.pid()) ?? holders[0]!).pid);
    await victim.stop('SIGKILL');
    const survivors = instances.filter((service) => service !== victim);
    const started = Date.now();
    for (const deadline = Date.now() + 4 * 60_000; ; await sleep(500)) {
      const finals = await finalStatesOf(ids);
      if (ids.every((id) => finals.has(id))) break;
      if (Date.now() > deadline) {
        const waiting = ids.filter((id) => !finals.has(id));
        throw new Error(`${waiting.length} jobs never ended:\n${await whereStuck(waiting)}`);
      }
    }
    const finals = await finalStatesOf(ids);
    expect(ids.filter((id) => finals.get(id) === 1)).toHaveLength(jobs);
    const startsByJob = await starts.byJob();
    expect(ids.filter((id) => (startsByJob.get(id) ?? 0) > 1)).toEqual([]);
    const { rows } = await db!.query<{ state: string; n: string }>(
      'SELECT state, count(*) AS n FROM jobs WHERE id = ANY($1) GROUP BY state',
      [ids],
    );
    // Every job ran (once): none was failed for the takeover's sake.
    expect(Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]))).toEqual({
      completed: jobs,
    });
    await waitForState(survivors[0]!, ids.at(-1)!, 'completed');
    const takeovers = survivors.map(
      (service) => (service.output().match(/took over the jobs of a lost instance/g) ?? []).length,
    );
    recordFigure(
      `3 instances on PostgreSQL: one taken over while alive, frozen, then another killed, ${jobs} jobs`,
      `${jobs} of ${jobs} completed once, 1 container each; takeovers logged by the survivors: ${takeovers.join('/')}; the last job ended ${((Date.now() - started) / 1000).toFixed(1)} s after the kill`,
    );
  });
});
