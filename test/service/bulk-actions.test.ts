import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkAction, BulkDryRun, JobList } from '../../contract';
import { mapWithConcurrency } from '../../src/lib/concurrency';
import { detail, submit, waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';

/** Cancel every job a filter matches: dry run, batches in the service, results, restarts. */
let service: TestService;
let otherKey: string;

beforeAll(async () => {
  // A short lease, and still longer than a restart: a killed instance's action is taken on soon.
  service = await startService({ reconcile_interval_seconds: 1, instance_timeout_seconds: 6 });
  otherKey = (await service.cli('keys', 'create', '--project', 'other')).match(/jd_\S+/)![0];
});
afterAll(() => service.stop());

/** `count` jobs that wait in the paused queue (no container), labelled `batch`. */
const waiting = (count: number, batch: string) =>
  mapWithConcurrency(
    Array.from({ length: count }, (_, i) => i),
    16,
    (i) =>
      submit(service, {
        job_definition: 't::echo:1',
        job_queue: 't::paused',
        name: `${batch}-${i}`,
        labels: { batch },
      }),
  );

const bulk = (body: unknown, key?: string) =>
  service.request('POST', '/v1/client/bulk-actions', body, key);

const actionOf = async (id: string) =>
  (await service.request('GET', `/v1/client/bulk-actions/${id}`)).body.data as BulkAction;

async function untilFinished(id: string, timeoutMs = 60_000): Promise<BulkAction> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const action = await actionOf(id);
    if (action.state !== 'running') return action;
    if (Date.now() > deadline)
      throw new Error(`bulk action still running: ${JSON.stringify(action)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const counted = async (query: string) =>
  ((await service.request('GET', `/v1/client/jobs?${query}&limit=1`)).body.data as JobList).total;

describe('bulk cancel over a filter', () => {
  it('says first what it would do, then cancels every matching job and only those', async () => {
    const queued = await waiting(250, 'release-4.2');
    const others = await waiting(2, 'keep');
    const running = await submit(service, {
      job_definition: 't::sleep:1',
      name: 'release-4.2-running',
      labels: { batch: 'release-4.2' },
    });
    const ended = await submit(service, {
      job_definition: 't::echo:1',
      name: 'release-4.2-ended',
      labels: { batch: 'release-4.2' },
    });
    await waitForState(service, running, 'running');
    await waitForState(service, ended, 'completed');
    const filter = { label: ['batch=release-4.2'] };

    const dry = await bulk({ action: 'cancel', filter, dry_run: true });
    expect(dry.status).toBe(200);
    const plan = dry.body.data as BulkDryRun;
    expect(plan).toMatchObject({
      dry_run: true,
      matched: 252,
      plan: { cancelled_at_once: 250, stopped: 1, already_cancelling: 0, skipped: 1 },
    });
    expect(plan.sample).toHaveLength(20);
    expect(plan.sample[0]).toMatchObject({ job_id: ended, state: 'completed' });
    // A dry run changes nothing.
    expect((await detail(service, queued[0]!)).state).toBe('runnable');

    const started = await bulk({ action: 'cancel', filter });
    expect(started.status).toBe(202);
    const action = started.body.data as BulkAction;
    expect(action).toMatchObject({ state: 'running', matched: 252, filter });
    expect(service.key).not.toContain(action.created_by);
    // Submitted after the start: newer than the action, left alone.
    const later = await submit(service, {
      job_definition: 't::echo:1',
      job_queue: 't::paused',
      name: 'release-4.2-later',
      labels: { batch: 'release-4.2' },
    });

    const done = await untilFinished(action.id);
    expect(done).toMatchObject({
      state: 'done',
      processed: 252,
      accepted: 251,
      refused: 1,
    });
    expect(done.finished_at).not.toBeNull();
    await waitForState(service, running, 'cancelled');
    expect(await counted('label=batch=release-4.2&state=cancelled')).toBe(251);
    expect((await detail(service, later)).state).toBe('runnable');
    for (const id of others) expect((await detail(service, id)).state).toBe('runnable');

    const results = await service.request('GET', `/v1/client/bulk-actions/${action.id}/results`);
    expect(results.status).toBe(200);
    expect(results.headers.get('content-type')).toContain('text/csv');
    expect(results.headers.get('content-disposition')).toContain('attachment');
    const rows = results.text.trimEnd().split('\r\n');
    expect(rows[0]).toBe('job_id,job_name,state_before,result,message');
    expect(rows).toHaveLength(253);
    expect(new Set(rows.slice(1).map((row) => row.split(',')[0])).size).toBe(252);
    expect(rows).toContain(
      `${ended},release-4.2-ended,completed,refused,job_id: job ${ended} is completed; a completed job cannot be cancelled`,
    );
    expect(rows).toContain(`${running},release-4.2-running,running,accepted,`);

    const listed = (await service.request('GET', '/v1/client/bulk-actions')).body.data as {
      items: BulkAction[];
    };
    expect(listed.items[0]).toMatchObject({ id: action.id, state: 'done' });
  });

  it("keeps another project's actions out of reach", async () => {
    // A name a spreadsheet would read as a formula is written as text in the results.
    const job = await submit(service, {
      job_definition: 't::echo:1',
      job_queue: 't::paused',
      name: '-1-1',
      labels: { batch: 'private' },
    });
    const { id } = (await bulk({ action: 'cancel', filter: { label: ['batch=private'] } })).body
      .data as BulkAction;
    await untilFinished(id);
    expect((await detail(service, job)).state).toBe('cancelled');
    const csv = (await service.request('GET', `/v1/client/bulk-actions/${id}/results`)).text;
    expect(csv.split('\r\n')[1]).toBe(`${job},'-1-1,runnable,accepted,`);
    for (const path of [`/v1/client/bulk-actions/${id}`, `/v1/client/bulk-actions/${id}/results`]) {
      const theirs = await service.request('GET', path, undefined, otherKey);
      expect(theirs.status, path).toBe(404);
      expect(theirs.body).toEqual({
        ok: false,
        message: `id: no bulk action "${id}" in this project`,
      });
    }
    const list = await service.request('GET', '/v1/client/bulk-actions', undefined, otherKey);
    expect(list.body.data).toEqual({ items: [] });
    // Their filter reaches only their own jobs.
    const dry = await bulk({ action: 'cancel', filter: {}, dry_run: true }, otherKey);
    expect((dry.body.data as BulkDryRun).matched).toBe(0);
  });

  it('refuses a bad request, naming the field, and changes nothing', async () => {
    const refusals: [unknown, string][] = [
      [{ action: 'delete', filter: {} }, 'action: must be "cancel" or "resubmit"'],
      [{ action: 'cancel' }, 'filter: must be an object of the list’s filters'],
      [{ action: 'cancel', filter: { state: ['nope'] } }, 'filter.state[0]:'],
      [{ action: 'cancel', filter: { limit: 5 } }, 'filter.limit: is not a field of this payload'],
      [{ action: 'cancel', filter: { label: ['bad key=x'] } }, 'filter.label[0]:'],
      [{ action: 'cancel', filter: {}, dry_run: 'yes' }, 'dry_run: must be true or false'],
      // The list's text rules, as Job Submit's: no NUL, no lone surrogate, names of 128 at most.
      [{ action: 'cancel', filter: { name: 'a\u0000b' } }, 'filter.name: must not contain NUL'],
      [{ action: 'cancel', filter: { name: '\ud800' } }, 'filter.name: must be well-formed'],
      [
        { action: 'cancel', filter: { name: 'x'.repeat(200_000) } },
        'filter.name: must be at most 128 characters',
      ],
      [
        { action: 'cancel', filter: { queue: 't::default\u0000' } },
        'filter.queue: must look like <project>::<queue>',
      ],
      [
        { action: 'cancel', filter: { queue: `t::\ud800${'x'.repeat(200_000)}` } },
        'filter.queue: must look like <project>::<queue>',
      ],
      [{ action: 'cancel', filter: { name: 'no-such-job-' } }, 'filter: matches no job'],
    ];
    for (const [body, message] of refusals) {
      const response = await bulk(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.ok).toBe(false);
      expect(response.body.message as string, JSON.stringify(body)).toContain(message);
    }
    const missing = await service.request('GET', '/v1/client/bulk-actions/nope');
    expect(missing.body).toEqual({
      ok: false,
      message: 'id: no bulk action "nope" in this project',
    });
    await waiting(1, 'finished');
    const { id } = (await bulk({ action: 'cancel', filter: { label: ['batch=finished'] } })).body
      .data as BulkAction;
    await untilFinished(id);
    const stop = await service.request('POST', `/v1/client/bulk-actions/${id}/stop`);
    expect(stop.status).toBe(409);
    expect(stop.body.message).toBe(
      `id: bulk action ${id} is done; only a running one can be stopped`,
    );
  });

  it('carries on after the service is killed mid-action, reaching every job once', async () => {
    await waiting(1000, 'crash');
    const { id } = (await bulk({ action: 'cancel', filter: { label: ['batch=crash'] } })).body
      .data as BulkAction;
    await service.stop('SIGKILL');
    await service.restart();
    // The killed instance's lease holds a while: the action waits, part done.
    const resumed = await actionOf(id);
    expect(resumed.state).toBe('running');
    expect(resumed.processed).toBeLessThan(1000);

    const done = await untilFinished(id);
    expect(done).toMatchObject({ state: 'done', processed: 1000, accepted: 1000 });
    expect(await counted('label=batch=crash&state=cancelled')).toBe(1000);
    const rows = (await service.request('GET', `/v1/client/bulk-actions/${id}/results`)).text
      .trimEnd()
      .split('\r\n')
      .slice(1);
    expect(new Set(rows.map((row) => row.split(',')[0])).size).toBe(1000);
    // 10 s on a quiet machine; past 60 s once beside the other suites in CI (a kill, a restart,
    // the killed instance's lease, and a thousand cancels on two busy cores).
  }, 150_000);

  it('stops when asked, leaving the jobs it had not reached', async () => {
    await waiting(600, 'stopped');
    const { id } = (await bulk({ action: 'cancel', filter: { label: ['batch=stopped'] } })).body
      .data as BulkAction;
    const stop = await service.request('POST', `/v1/client/bulk-actions/${id}/stop`);
    expect(stop.status).toBe(200);
    expect((stop.body.data as BulkAction).state).toBe('stopped');
    // The cancels in hand when the stop came are recorded a moment later: wait until it holds.
    let after = await actionOf(id);
    for (let settled = 0; settled < 3;) {
      await new Promise((r) => setTimeout(r, 200));
      const now = await actionOf(id);
      settled = now.processed === after.processed ? settled + 1 : 0;
      after = now;
    }
    expect(after.processed).toBeLessThan(600);
    // The batch in hand when the stop came is recorded too: every job cancelled has its result.
    expect(await counted('label=batch=stopped&state=cancelled')).toBe(after.processed);
    expect(await counted('label=batch=stopped&state=runnable')).toBe(600 - after.processed);
    // No job left pending: the jobs not reached have no result.
    const csv = (await service.request('GET', `/v1/client/bulk-actions/${id}/results`)).text;
    expect(csv.trimEnd().split('\r\n')).toHaveLength(after.processed + 1);
    expect(csv).not.toContain('pending');
  });
});
