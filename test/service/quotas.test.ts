import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FINAL_STATES,
  type JobTransition,
  type ProjectShareRecord,
  type ShareList,
} from '../../contract';
import { SCRIPT_VARIABLES as SIMULATE } from '../../server/runtime/simulated/script';
import { ProjectKeys, until as waitUntil } from '../support/project-keys';
import { TEST_IMAGE, startService, testProjects, type TestService } from '../support/service';

/**
 * Quotas through the real service and its dispatcher (the simulated engine, one host of 8 CPUs):
 * projects a and b have quotas of 4 CPUs each, a may borrow 2. Alone, a holds 6 (4 and 2
 * borrowed of b's unused quota) and its next job says it is at its quota; once b's own 2-CPU
 * jobs wait for room, a starts nothing more even where its 1-CPU jobs would fit (reclaim by
 * waiting), b's jobs start as a's end, and every job ends once.
 */
let service: TestService;
const keys = new ProjectKeys();
/** Each job's project: its key reads it. */

const definitions = {
  one: { '1': { image: TEST_IMAGE, command: ['true'], resources: { cpus: 1, memory: '256m' } } },
  two: { '1': { image: TEST_IMAGE, command: ['true'], resources: { cpus: 2, memory: '256m' } } },
};

beforeAll(async () => {
  service = await startService({
    reconcile_interval_seconds: 1,
    max_running: 100,
    metrics: { on_api_port: true },
    engine: {
      type: 'simulated',
      slots_per_node: 100,
      start_ms: 10,
      run_ms: 200,
      hosts: [{ name: 'node', cpus: 8, memory: '16g' }],
    },
    projects: {
      ...testProjects(),
      a: {
        quota: { cpus: 4, borrowing_limit: { cpus: 2 } },
        queues: { default: { max_running: 100 } },
        definitions,
      },
      b: { quota: { cpus: 4 }, queues: { default: { max_running: 100 } }, definitions },
    },
  });
  await keys.create(service, ['a', 'b'], 'operator');
});
afterAll(() => service?.stop());

const submit = (project: 'a' | 'b', definition: 'one' | 'two', runMs: number) =>
  keys.submit(service, project, {
    job_definition: `${project}::${definition}:1`,
    job_queue: `${project}::default`,
    container_env: { [SIMULATE.runMs]: { value: String(runMs) } },
  });

const job = (id: string) => keys.job(service, id);

async function project(code: string): Promise<ProjectShareRecord> {
  const response = await service.request('GET', '/v1/client/shares');
  expect(response.status).toBe(200);
  return (response.body.data as ShareList).projects.find((p) => p.project === code)!;
}

const until = <T>(what: string, read: () => Promise<T | undefined>) =>
  waitUntil(what, read, { timeoutMs: 30_000, pollMs: 100 });

describe('quotas that lend and borrow on one host of 8 CPUs', () => {
  it('holds a at its quota and what it may borrow, reclaims by waiting, loses nothing', async () => {
    // a's jobs end one by one from 4 s on: long enough to see it hold 6 and b's jobs wait.
    const aJobs: string[] = [];
    for (let i = 0; i < 8; i += 1) aJobs.push(await submit('a', 'one', 4000 + i * 700));

    const held = await until('a to hold 6 CPUs', async () => {
      const a = await project('a');
      return a.in_use.cpus === 6 ? a : undefined;
    });
    expect(held.quota).toMatchObject({
      nominal: { cpus: 4 },
      borrowing_limit: { cpus: 2 },
      borrowed: { cpus: 2 },
    });
    expect((await project('b')).quota).toMatchObject({ nominal: { cpus: 4 }, lent: { cpus: 2 } });
    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/^jobdeck_quota_borrowed\{project="a",resource="cpus"\} 2$/m);
    expect(metrics).toMatch(/^jobdeck_quota_lent\{project="b",resource="cpus"\} 2$/m);
    // A project without a quota has no row.
    expect(metrics).not.toMatch(/^jobdeck_quota_lent\{project="t"/m);
    const waitingOfA = await until('a waiting job of a', async () => {
      const jobs = await Promise.all(aJobs.map(job));
      return jobs.find((j) => j.state === 'runnable');
    });
    expect(waitingOfA.system_note).toBe(
      'waiting: project a is at its quota of 4 cpus (borrowing 2 of 2 allowed)',
    );

    // b's own work: 2 CPUs free now, so one job starts and the other waits for room.
    const bJobs = [await submit('b', 'two', 5000), await submit('b', 'two', 5000)];
    await until('b to hold 2 CPUs and wait', async () => {
      const states = (await Promise.all(bJobs.map(job))).map((j) => j.state);
      return states.includes('runnable') && states.some((s) => s !== 'runnable') ? true : undefined;
    });
    const heldByA: number[] = [];
    // Notes quote figures up to a second old: the first ones may predate b's waiting.
    const notesOfA = new Set<string>();
    await until("b's jobs to have started", async () => {
      const a = await project('a');
      heldByA.push(a.in_use.cpus);
      const states = await Promise.all(bJobs.map(job));
      if (states.some((j) => j.state === 'runnable')) {
        const waiting = (await Promise.all(aJobs.map(job))).find((j) => j.state === 'runnable');
        if (waiting?.system_note) notesOfA.add(waiting.system_note);
        return undefined;
      }
      return true;
    });
    // While b waited, a never started another job: its CPUs only went down.
    for (let i = 1; i < heldByA.length; i += 1) {
      expect(heldByA[i]).toBeLessThanOrEqual(heldByA[i - 1]!);
    }
    expect([...notesOfA]).toContainEqual(
      expect.stringMatching(
        /^waiting: project a is at its quota of 4 cpus \(borrowing [12]; the lenders' own jobs wait\)$/,
      ),
    );

    // Every job ends once, completed at its first attempt.
    for (const id of [...aJobs, ...bJobs]) {
      const ended = await until(`job ${id} to end`, async () => {
        const j = await job(id);
        return FINAL_STATES.includes(j.state) ? j : undefined;
      });
      expect(ended.state).toBe('completed');
      const { items: moves } = await keys.readJob<{ items: JobTransition[] }>(
        service,
        id,
        '/transitions',
      );
      expect(moves.filter((m) => m.to === 'running')).toHaveLength(1);
    }
  }, 120_000);

  it('answers no quota for a project without one', async () => {
    const t = await project('t');
    expect(t.quota).toBeUndefined();
    expect(t.queues[0]!.quota).toBeUndefined();
  });
});
