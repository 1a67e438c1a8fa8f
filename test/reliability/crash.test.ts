import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArrayAnswer, JobListItem, JobState } from '../../contract';
import { ContainerStarts, containersOf } from '../support/engine-events';
import { startService, testProjects, type TestService } from '../support/service';
import { logsOf, movedAt, shScript, statesOf, submit, waitForState } from '../support/jobs';
import { releaseHeldJob } from '../support/release-job';
import { budget, recordFigure } from './figures';

/**
 * The process dies at every write of a job's life (JOBDECK_FAILPOINT, inert in production) and
 * starts again: the job still ends right, its container started exactly once, nothing left over.
 */
const FAIL_POINTS = [
  'after-insert',
  'after-move-to-runnable',
  'after-move-to-starting',
  'after-create',
  'after-start',
  'after-move-to-running',
  'after-move-to-completed',
];

/** Jobs in each of running, runnable and pending when the process is killed. */
const N = budget({ ci: 10, full: 20 });

const started: TestService[] = [];
const starts = new ContainerStarts();
beforeAll(() => starts.started());
afterAll(async () => {
  starts.stop();
  for (const service of started) await service.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function jobNamed(service: TestService, name: string): Promise<JobListItem> {
  const response = await service.request('GET', '/v1/client/jobs?limit=200');
  const found = (response.body.data as { items: JobListItem[] }).items.find((j) => j.name === name);
  if (!found) throw new Error(`no job named ${name}: it was lost`);
  return found;
}

async function withoutContainers(jobId: string, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
    if (containersOf(jobId).length === 0) return true;
  }
  return false;
}

describe('crashes at every step', () => {
  it.each(FAIL_POINTS)(
    'a kill %s: restart, the job completes, one container, no orphan',
    async (point) => {
      const service = await startService({ reconcile_interval_seconds: 0.5 }, undefined, {
        env: { JOBDECK_FAILPOINT: point },
      });
      started.push(service);
      const name = `crash-${point}`;
      // The answer may never come: the process can die before it replies.
      await service
        .request('POST', '/v1/client/job', {
          job_definition: 't::sh:1',
          job_queue: 't::default',
          name,
          container_cmd_parameter: { script: 'sleep 0.5; echo done' },
        })
        .catch(() => undefined);
      await Promise.race([
        service.exited(),
        sleep(20_000).then(() => {
          throw new Error(`the fail point ${point} was never reached`);
        }),
      ]);
      await service.restart();

      const { id } = await jobNamed(service, name);
      const job = await waitForState(
        service,
        id,
        ['completed', 'failed', 'error', 'cancelled'],
        60_000,
      );
      expect(job.state).toBe('completed');
      expect(await logsOf(service, id)).toBe('done\n');
      expect(await withoutContainers(id, 10_000)).toBe(true);
      const startCount = (await starts.byJob()).get(id) ?? 0;
      expect(startCount).toBe(1);
      const history = await statesOf(service, id);
      recordFigure(
        `crash ${point}`,
        `${job.state}, ${startCount} container start, 0 left, ${history.join('→')}`,
      );
      await service.stop();
    },
  );

  it('a kill between the chunks of an array’s admission: restart, the missing children are stored, each index once', async () => {
    const service = await startService({ reconcile_interval_seconds: 0.5 }, undefined, {
      env: { JOBDECK_FAILPOINT: 'after-array-first-chunk' },
    });
    started.push(service);
    const size = 1200;
    // In the paused queue: only the admission is under test, nothing runs.
    await service
      .request('POST', '/v1/client/job', {
        job_definition: 't::sh:1',
        job_queue: 't::paused',
        name: 'crash-array',
        array: { size },
      })
      .catch(() => undefined);
    await Promise.race([
      service.exited(),
      sleep(20_000).then(() => {
        throw new Error('the fail point after-array-first-chunk was never reached');
      }),
    ]);
    await service.restart();
    const { id } = await jobNamed(service, 'crash-array');
    const page = async (cursor?: string) => {
      const query = `?limit=1000${cursor === undefined ? '' : `&cursor=${cursor}`}`;
      const response = await service.request('GET', `/v1/client/job/${id}/array${query}`);
      return response.body.data as ArrayAnswer;
    };
    // The process died with the first 250 stored; the restart's first pass stores the rest.
    let indexes: number[] = [];
    for (const deadline = Date.now() + 30_000; indexes.length < size; await sleep(250)) {
      if (Date.now() > deadline) throw new Error(`only ${indexes.length} of ${size} children`);
      const first = await page();
      const rest = first.next_cursor === null ? [] : (await page(first.next_cursor)).items;
      indexes = [...first.items, ...rest].map((child) => child.index);
    }
    expect(indexes).toEqual(Array.from({ length: size }, (_, i) => i));
    await service.request('POST', `/v1/client/job/${id}/cancel`);
    expect((await waitForState(service, id, ['cancelled', 'completed', 'failed'])).state).toBe(
      'cancelled',
    );
    expect((await page()).counts).toEqual({ cancelled: size });
    recordFigure(
      'crash after-array-first-chunk',
      `killed with 250 of ${size} children stored; all ${size} after the restart, each index once; cancelled as a whole`,
    );
    await service.stop();
  });

  it(`kill -9 with ${N} running, ${N} runnable and ${N} pending jobs: all complete, each started once`, async () => {
    const projects = testProjects();
    (projects.t.queues as Record<string, object>).bulk = { max_running: N };
    const service = await startService({
      max_running: N,
      projects,
      reconcile_interval_seconds: 1,
    });
    started.push(service);
    const post = (i: number, script: string, extra: object = {}) =>
      submit(service, {
        job_definition: 't::sh:1',
        job_queue: 't::bulk',
        name: `kill9-${i}`,
        container_cmd_parameter: { script },
        ...extra,
      });
    const ids: string[] = [];
    // The first N hold their slots until the test lets them go (a file it makes in each).
    const hold = 'while [ ! -e /tmp/release ]; do sleep 0.2; done; echo done';
    for (let i = 0; i < N; i += 1) ids.push(await post(i, hold));
    for (let i = N; i < 2 * N; i += 1) ids.push(await post(i, 'echo done'));
    // Pending through the fill, the kill and the restart (seconds), and not much longer: the test
    // waits for them to run.
    const later = Date.now() / 1000 + 30;
    for (let i = 2 * N; i < 3 * N; i += 1) {
      ids.push(await post(i, 'echo done', { schedule_at: later }));
    }
    const counts = async () => {
      const response = await service.request('GET', '/v1/client/jobs?limit=200');
      const mine = (response.body.data as { items: JobListItem[] }).items.filter((j) =>
        j.name.startsWith('kill9-'),
      );
      const by = (state: JobState) => mine.filter((j) => j.state === state).length;
      return { running: by('running'), runnable: by('runnable'), pending: by('pending') };
    };
    for (const deadline = Date.now() + 60_000; (await counts()).running < N; await sleep(200)) {
      if (Date.now() > deadline)
        throw new Error(`${N} jobs never ran at once: ${JSON.stringify(await counts())}`);
    }
    expect(await counts()).toEqual({ running: N, runnable: N, pending: N });
    // A dependency chain across the kill: each waits (afterok) for the one before, the first for
    // a held job, so all three are pending when the process dies.
    const chain: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      chain.push(
        await submit(service, {
          ...shScript('echo done'),
          depends_on: [{ job_id: i === 0 ? ids[0]! : chain[i - 1]! }],
        }),
      );
    }

    await service.stop('SIGKILL');
    await service.restart();
    expect(await counts()).toEqual({ running: N, runnable: N, pending: N });
    for (const id of ids.slice(0, N)) {
      await releaseHeldJob(id);
    }

    for (const id of [...ids, ...chain]) await waitForState(service, id, 'completed', 120_000);
    const startsByJob = await starts.byJob();
    const once = ids.filter((id) => startsByJob.get(id) === 1).length;
    expect(once).toBe(3 * N);
    for (const [i, id] of chain.entries()) {
      expect(startsByJob.get(id)).toBe(1);
      const before = i === 0 ? ids[0]! : chain[i - 1]!;
      expect(await movedAt(service, id, 'starting')).toBeGreaterThanOrEqual(
        await movedAt(service, before, 'completed'),
      );
    }
    recordFigure(
      `kill -9 with ${N} running, ${N} runnable, ${N} pending`,
      `the same ${N}/${N}/${N} right after restart; ${once} of ${3 * N} completed, each container started once; a chain of 3 dependencies pending at the kill completed in order`,
    );
    await service.stop();
  });
});
