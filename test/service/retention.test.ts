import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkAction, QueueSummary } from '../../contract';
import { FollowedEvents, openEventStream, untilText } from '../support/events';
import { detail, submit, waitForState } from '../support/jobs';
import { startService, testProjects, type TestService } from '../support/service';

/**
 * Retention in a real service on real containers: finished jobs past their queue's time are
 * deleted by the service's own pass, and nothing else is; event streams live and resumed are
 * not held up by the changes deleted with them.
 */
let service: TestService;
const KEEP_SECONDS = 3;
/** t::lingering keeps its jobs longer: long enough for a bulk action to see them first, on a busy machine. */
const LINGER_SECONDS = 15;

beforeAll(async () => {
  const projects = testProjects();
  const queues = projects.t.queues as Record<string, Record<string, unknown>>;
  queues.single = { ...queues.single, keep_finished_jobs: 'forever' };
  queues.lingering = { ...queues.default, keep_finished_jobs: `${LINGER_SECONDS}s` };
  service = await startService({
    projects,
    retention: { keep_finished_jobs: `${KEEP_SECONDS}s`, prune_every_seconds: 1 },
    metrics: { on_api_port: true },
  });
});
afterAll(() => service.stop());

const echo = { job_definition: 't::echo:1' };
const sleeper = { job_definition: 't::sleep:1' };
/** Every job submitted to t::default, whose jobs are kept KEEP_SECONDS. */
const shortLived: string[] = [];
const submitShortLived = async (payload: Record<string, unknown>) => {
  const id = await submit(service, payload);
  shortLived.push(id);
  return id;
};
const gone = async (id: string) =>
  (await service.request('GET', `/v1/client/job/${id}`)).status === 404;

async function until(done: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('retention', () => {
  it('lists each queue’s retention: seconds, or null for forever', async () => {
    const response = await service.request('GET', '/v1/client/queues');
    const items = (response.body.data as { items: QueueSummary[] }).items;
    const retention = Object.fromEntries(items.map((q) => [q.queue, q.retention_seconds]));
    expect(retention).toEqual({
      't::default': KEEP_SECONDS,
      't::single': null,
      't::paused': KEEP_SECONDS,
      't::lingering': LINGER_SECONDS,
    });
  });

  it('deletes finished jobs past their time, with their labels, and keeps running and kept-forever ones; streams go on', async () => {
    const live = new FollowedEvents(service);
    await live.open();
    const labels = { ticket: 'OPS-7' };
    const finished: string[] = [];
    for (let i = 0; i < 3; i++) finished.push(await submitShortLived({ ...echo, labels }));
    const running = await submitShortLived(sleeper);
    // Seen on the stream, not by polling: a finished job may be pruned before a poll sees it.
    await live.until(() => finished.every((id) => live.statesOf(id).includes('completed')));
    await waitForState(service, running, 'running');
    // The job of the newest change is kept whatever its age: here, one kept forever anyway.
    const forever = await submit(service, { ...echo, job_queue: 't::single' });
    await waitForState(service, forever, 'completed');
    await live.until(() => live.statesOf(finished[0]!).includes('completed'));
    const oldEventId = live.events.find((e) => e.job.id === finished[0])!.id;

    await until(async () => (await Promise.all(finished.map(gone))).every(Boolean), 'pruned');
    expect(await detail(service, running)).toMatchObject({ state: 'running' });
    expect(await detail(service, forever)).toMatchObject({ state: 'completed' });
    const byLabel = await service.request('GET', '/v1/client/jobs?label=ticket=OPS-7');
    expect(byLabel.status).toBe(200);
    expect((byLabel.body.data as { items: unknown[] }).items).toEqual([]);
    for (const id of finished) {
      expect((await service.request('GET', `/v1/client/job/${id}/logs`)).status).toBe(404);
    }

    // The live stream follows the next job as before.
    const next = await submitShortLived(echo);
    await live.expectLifecycles(
      [next],
      ['submitted', 'runnable', 'starting', 'running', 'completed'],
    );
    live.close();

    // A stream resumed from a change that was deleted since replays what is left after it.
    const resumed = await openEventStream(service, { 'last-event-id': oldEventId });
    expect(resumed.response.status).toBe(200);
    const text = await untilText(resumed.text, new RegExp(`"id":"${next}"[^\\n]*"completed"`));
    resumed.close();
    for (const id of finished) expect(text).not.toContain(id);
    expect(text).toContain(running);

    await service.request('POST', `/v1/client/job/${running}/cancel`);
    await waitForState(service, running, 'cancelled');
  });

  it('a stream opened once every finished job went starts at once (no wait for the deleted numbers)', async () => {
    // Every finished job goes but the one of the newest change, kept with the newest number.
    const last = await submitShortLived(echo);
    await waitForState(service, last, 'completed');
    const before = shortLived.filter((id) => id !== last);
    await until(async () => (await Promise.all(before.map(gone))).every(Boolean), 'all pruned');
    expect(await service.cli('prune', '--dry-run')).toMatch(/^t::default\t0\t/m);
    expect(await detail(service, last)).toMatchObject({ state: 'completed' });

    const stream = new FollowedEvents(service);
    await stream.open();
    const submitted = Date.now();
    const id = await submit(service, echo);
    await stream.until(() => stream.statesOf(id).length > 0, 15_000);
    // The feed's grace for a missing change is 5 s: this came well before it.
    expect(Date.now() - submitted).toBeLessThan(2500);
    stream.close();
  });

  it('jobdeck prune --dry-run prints each queue’s plan, deleting nothing; the service counts and logs what it deleted', async () => {
    const kept = await submit(service, { ...echo, job_queue: 't::single' });
    await waitForState(service, kept, 'completed');
    const plan = await service.cli('prune', '--dry-run');
    expect(plan.split('\n')[0]).toBe('queue\tjobs\tfinished before\toldest finished');
    expect(plan).toMatch(/^t::default\t\d+\t\d{4}-\d\d-\d\dT[\d:.]+Z\t/m);
    expect(plan).toMatch(/^t::single\t0\tkept forever\t-$/m);
    expect(await detail(service, kept)).toMatchObject({ state: 'completed' });

    const metrics = await fetch(`${service.baseUrl}/metrics`).then((r) => r.text());
    const pruned = /^jobdeck_jobs_pruned_total\{queue="t::default"\} (\d+)$/m.exec(metrics);
    expect(Number(pruned?.[1])).toBeGreaterThanOrEqual(5);
    expect(service.output()).toContain('retention: deleted finished jobs past their time');
  });

  it('a wait judged met stays met once the job it named is deleted: jobs and an array’s children waiting on another job run when it completes', async () => {
    // X and the array are kept LINGER_SECONDS: the jobs that name them are submitted well before
    // they go (on a loaded machine, 3 s passed between the array's end and the submit naming
    // it). Z runs past their retention.
    const lingering = { job_queue: 't::lingering' };
    const z = await submit(service, {
      ...sleeper,
      job_queue: 't::single',
      container_cmd_parameter: { seconds: String(LINGER_SECONDS + 20) },
    });
    const x = await submit(service, {
      ...sleeper,
      ...lingering,
      container_cmd_parameter: { seconds: '1' },
    });
    const bothOf = (first: string) => [
      { job_id: first, type: 'afterok' },
      { job_id: z, type: 'afterok' },
    ];
    // y waits before x ends, late after (its edge stored with x's end).
    const y = await submit(service, { ...echo, depends_on: bothOf(x) });
    const array = await submit(service, { ...echo, ...lingering, array: { size: 2 } });
    await waitForState(service, array, 'completed');
    await waitForState(service, x, 'completed');
    const late = await submit(service, { ...echo, depends_on: bothOf(x) });
    const followers = await submit(service, {
      ...echo,
      array: { size: 2 },
      depends_on: [{ job_id: array, type: 'n_to_n' }, { job_id: z }],
    });
    await until(
      async () => (await detail(service, y)).system_note?.startsWith('waiting for 1 of 2') ?? false,
      'y judged x met',
    );
    await until(
      async () => (await gone(x)) && (await gone(array)),
      'x and the array pruned',
      60_000,
    );
    // Passes of the dispatcher and of retention went by: nothing waiting was cancelled.
    await new Promise((r) => setTimeout(r, 2000));
    for (const id of [y, late, followers]) {
      expect(await detail(service, id)).toMatchObject({ state: 'pending' });
    }
    expect((await detail(service, y)).system_note).toMatch(/^waiting for 1 of 2 jobs?/);
    for (const id of [y, late, followers]) await waitForState(service, id, 'completed');
  });

  it('what names a deleted job stays: a bulk action’s results and the audit trail’s events', async () => {
    // Both are pruned only after the bulk action has seen them: with t::default's 3 s, a loaded
    // machine pruned the ended one before the action ran.
    const labels = { case: 'pruned' };
    const lingering = { labels, job_queue: 't::lingering' };
    const ended = await submit(service, { ...echo, ...lingering });
    const running = await submit(service, { ...sleeper, ...lingering });
    await waitForState(service, ended, 'completed');
    await waitForState(service, running, 'running');
    expect((await service.request('POST', `/v1/client/job/${running}/cancel`)).status).toBe(202);
    await waitForState(service, running, 'cancelled');
    const started = await service.request('POST', '/v1/client/bulk-actions', {
      action: 'cancel',
      filter: { label: ['case=pruned'] },
    });
    expect(started.status).toBe(202);
    const action = (started.body.data as BulkAction).id;
    await until(
      async () =>
        (
          (await service.request('GET', `/v1/client/bulk-actions/${action}`)).body
            .data as BulkAction
        ).state === 'done',
      'the bulk action done',
    );
    // The newest change's job is kept: let it be one kept forever.
    await waitForState(
      service,
      await submit(service, { ...echo, job_queue: 't::single' }),
      'completed',
    );
    await until(
      async () => (await gone(ended)) && (await gone(running)),
      'both pruned',
      (LINGER_SECONDS + 30) * 1000,
    );

    const rows = (await service.request('GET', `/v1/client/bulk-actions/${action}/results`)).text;
    expect(rows).toContain(`${running},${(await nameOf(rows, running))!},cancelled,accepted,`);
    expect(rows).toMatch(
      new RegExp(`^${ended},[^,]+,completed,refused,job_id: job ${ended} is completed`, 'm'),
    );
    const audit = await service.request('GET', `/v1/client/audit?target=${running}`);
    expect(audit.status).toBe(200);
    const actions = (audit.body.data as { items: { action: string }[] }).items.map((e) => e.action);
    expect(actions.sort()).toEqual(['job.cancel', 'job.submit']);
  });
});

/** The job name a results CSV gives a job. */
const nameOf = (csv: string, id: string) =>
  csv
    .split('\r\n')
    .find((row) => row.startsWith(`${id},`))
    ?.split(',')[1];
