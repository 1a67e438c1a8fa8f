import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AuditAction,
  AuditEvent,
  AuditPage,
  BulkAction,
  CreatedApiKey,
  CreatedWebhook,
  JobExecution,
} from '../../contract';
import { mapWithConcurrency } from '../../src/lib/concurrency';
import { submit, waitForState } from '../support/jobs';
import { expectSecretOnlyInJob } from '../support/secret-probe';
import { startService, testProjects, type TestService } from '../support/service';

/** The audit trail of a real service: every action recorded once, filtered, paged, kept. */
let service: TestService;
let viewerKey: string;
let otherKey: string;
let adminActor: string;

const projects = testProjects();
Object.assign(projects.t, {
  schedules: {
    yearly: { job_definition: 't::echo:1', job_queue: 't::default', cron: '0 0 1 1 *' },
  },
});

beforeAll(async () => {
  service = await startService({
    projects,
    webhooks: { allowed_hosts: ['127.0.0.1'] },
  });
  const keyOf = (output: string) => output.match(/jd_\S+/)![0];
  viewerKey = keyOf(await service.cli('keys', 'create', '--project', 't', '--role', 'viewer'));
  otherKey = keyOf(await service.cli('keys', 'create', '--project', 'other', '--role', 'admin'));
  adminActor = ((await service.request('GET', '/v1/client/whoami')).body.data as { actor: string })
    .actor;
}, 60_000);
afterAll(() => service.stop());

async function audit(query = '', key?: string): Promise<AuditPage> {
  const answer = await service.request('GET', `/v1/client/audit${query}`, undefined, key);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data as AuditPage;
}

/** Every event of the project that matches `query`, every page. */
async function allEvents(query = ''): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | null = null;
  do {
    const joiner = query === '' ? '?' : `${query}&`;
    const page = await audit(`${joiner}limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    events.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return events;
}

async function ok(method: string, path: string, body?: unknown, status = 200) {
  const answer = await service.request(method, path, body);
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(status);
  return answer.body.data;
}

describe('the audit trail', () => {
  const targets = new Map<AuditAction, string>();

  it('records every action once, after it succeeded, with actor, address and target', async () => {
    const job = await submit(service, { job_definition: 't::sleep:1' });
    targets.set('job.submit', job);
    await ok('POST', `/v1/client/job/${job}/cancel`, undefined, 202);
    targets.set('job.cancel', job);
    await ok('POST', '/v1/client/queues/t::single/pause', { reason: 'maintenance' });
    await ok('POST', '/v1/client/queues/t::single/resume');
    await ok('POST', '/v1/client/queues/t::single/max-running', { max_running: 1 });
    for (const action of ['queue.pause', 'queue.resume', 'queue.max_running'] as const)
      targets.set(action, 't::single');
    await ok('POST', '/v1/client/schedules/yearly/pause', { reason: 'quiet' });
    await ok('POST', '/v1/client/schedules/yearly/resume');
    targets.set('schedule.pause', 'yearly').set('schedule.resume', 'yearly');
    await ok('PUT', '/v1/client/views/failed', { search: 'state=failed' });
    await ok('DELETE', '/v1/client/views/failed');
    targets.set('view.save', 'failed').set('view.delete', 'failed');
    const hook = (await ok(
      'POST',
      '/v1/client/webhooks',
      { url: 'http://127.0.0.1:9/hook?token=url-canary-51c2', states: ['failed'] },
      201,
    )) as CreatedWebhook;
    await ok('PATCH', `/v1/client/webhooks/${hook.id}`, { states: ['failed', 'error'] });
    await ok('POST', `/v1/client/webhooks/${hook.id}/test`, undefined, 202);
    await ok('DELETE', `/v1/client/webhooks/${hook.id}`);
    for (const action of [
      'webhook.create',
      'webhook.update',
      'webhook.test',
      'webhook.delete',
    ] as const)
      targets.set(action, hook.id);
    const key = (await ok(
      'POST',
      '/v1/client/keys',
      { label: 'ci', role: 'viewer' },
      201,
    )) as CreatedApiKey;
    await ok('DELETE', `/v1/client/keys/${key.id}`);
    targets.set('key.create', key.id).set('key.revoke', key.id);
    // A bulk action stopped while it still runs: its 300 jobs wait in the paused queue.
    await mapWithConcurrency(
      Array.from({ length: 300 }, (_, i) => i),
      16,
      (i) =>
        submit(service, { job_definition: 't::echo:1', job_queue: 't::paused', name: `bulk-${i}` }),
    );
    const action = (await ok(
      'POST',
      '/v1/client/bulk-actions',
      { action: 'cancel', filter: { queue: 't::paused' } },
      202,
    )) as BulkAction;
    const stop = await service.request('POST', `/v1/client/bulk-actions/${action.id}/stop`);
    // It may have finished first on a fast machine: a stop of a done action is refused.
    expect([200, 409]).toContain(stop.status);
    if (stop.status === 200) targets.set('bulk.stop', action.id);
    targets.set('bulk.start', action.id);
    // A refused action records nothing.
    expect((await service.request('DELETE', '/v1/client/views/no-such-view')).status).toBe(404);

    const events = await allEvents();
    for (const [action, target] of targets) {
      const matching = events.filter((e) => e.action === action && e.target === target);
      expect(matching, action).toHaveLength(1);
      expect(matching[0]).toMatchObject({ actor: adminActor, address: '127.0.0.1' });
    }
    expect(events.filter((e) => e.action === 'view.delete')).toHaveLength(1);
    expect(events.some((e) => e.action === 'bulk.stop')).toBe(stop.status === 200);
    expect(events.find((e) => e.action === 'job.submit' && e.target === job)!.detail).toEqual({
      definition: 't::sleep:1',
      queue: 't::default',
    });
    expect(events.find((e) => e.action === 'key.create')!.detail).toEqual({
      id: key.id,
      role: 'viewer',
      label: 'ci',
    });
    // A webhook's URL may hold a token: only its host is kept, and never its secret.
    const text = JSON.stringify(events);
    expect(text).not.toContain('url-canary-51c2');
    expect(text).not.toContain(hook.secret);
    expect(text).not.toContain(key.key);
  });

  it('shows who submitted a job and who asked for its cancel beside its execution, not in Job Detail', async () => {
    const job = targets.get('job.submit')!;
    const execution = (await ok('GET', `/v1/client/job/${job}/execution`)) as JobExecution;
    expect(execution).toMatchObject({
      submitted_by: adminActor,
      cancel_requested_by: adminActor,
      cancel_requested_at: expect.any(String) as string,
    });
    const record = (await ok('GET', `/v1/client/job/${job}`)) as Record<string, unknown>;
    expect(Object.keys(record).sort()).toEqual(
      ['created_at', 'id', 'name', 'schedule_at', 'state', 'system_note', 'updated_at'].sort(),
    );
  });

  it('filters by action, actor, target and time, and pages newest first by cursor', async () => {
    const submits = await allEvents('?action=job.submit');
    expect(submits.length).toBeGreaterThanOrEqual(301);
    expect(submits.every((e) => e.action === 'job.submit')).toBe(true);
    const times = submits.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(submits.map((e) => e.id)).size).toBe(submits.length);

    const first = await audit('?action=job.submit&limit=100');
    const second = await audit(`?action=job.submit&limit=100&cursor=${first.next_cursor}`);
    expect([...first.items, ...second.items].map((e) => e.id)).toEqual(
      submits.slice(0, 200).map((e) => e.id),
    );

    const job = targets.get('job.cancel')!;
    expect((await audit(`?target=${job}`)).items.map((e) => e.action)).toEqual([
      'job.cancel',
      'job.submit',
    ]);
    expect((await audit(`?actor=${encodeURIComponent(adminActor)}&limit=1`)).items).toHaveLength(1);
    expect((await audit('?actor=key:key_000000000000')).items).toEqual([]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await audit(`?since=${future}`)).items).toEqual([]);
    expect((await audit(`?until=${submits.at(-1)!.at}`)).items.map((e) => e.action)).not.toContain(
      'job.cancel',
    );
  });

  it('refuses bad filters naming the field', async () => {
    const answer = async (query: string) =>
      (await service.request('GET', `/v1/client/audit${query}`)).body.message;
    expect(await answer('?action=job.explode')).toMatch(/^action: /);
    expect(await answer('?since=yesterday')).toMatch(/^since: /);
    expect(await answer('?limit=201')).toMatch(/^limit: /);
    expect(await answer('?cursor=AAAAAAAAAAAAAAAAAAAAAA')).toBe(
      'cursor: must be a next_cursor value from an earlier page',
    );
    // A job list's cursor is not an audit cursor.
    const jobs = (await ok('GET', '/v1/client/jobs?limit=1')) as { next_cursor: string };
    expect(await answer(`?cursor=${jobs.next_cursor}`)).toBe(
      'cursor: must be a next_cursor value from an earlier page',
    );
  });

  it('is an admin’s: a viewer gets 403 naming the role', async () => {
    const answer = await service.request('GET', '/v1/client/audit', undefined, viewerKey);
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(
      'role: GET /v1/client/audit needs the admin role; this API key has viewer in this project',
    );
  });

  it('never shows another project’s events', async () => {
    const submitted = await service.request(
      'POST',
      '/v1/client/job',
      { job_definition: 'other::echo:1', job_queue: 'other::default' },
      otherKey,
    );
    const theirId = (submitted.body.data as { id: string }).id;
    const theirs = await audit('', otherKey);
    expect(theirs.items.map((e) => [e.action, e.target])).toEqual([['job.submit', theirId]]);
    expect((await allEvents()).some((e) => e.target === theirId)).toBe(false);
  });

  it('holds no sensitive env value and no command, in its answers or the store files', async () => {
    const secret = 'audit-secret-9d2e71b4-never-audited';
    const id = await expectSecretOnlyInJob(service, secret);
    const events = await allEvents(`?target=${id}`);
    expect(events.map((e) => e.action)).toEqual(['job.submit']);
    const text = JSON.stringify(await allEvents());
    expect(text).not.toContain(secret);
    expect(text).not.toContain('sha256sum');
    for (const file of await service.storeFiles()) {
      expect(readFileSync(file).includes(secret), file).toBe(false);
    }
  });

  it('keeps its events across a restart, and records the cancel of a job that runs', async () => {
    const before = await allEvents();
    await service.restart();
    expect((await allEvents()).map((e) => e.id)).toEqual(before.map((e) => e.id));
    const job = await submit(service, { job_definition: 't::sleep:1' });
    await waitForState(service, job, 'running');
    await ok('POST', `/v1/client/job/${job}/cancel`, undefined, 202);
    // Stopped at once: what the last requests recorded is written before the store closes.
    await service.stop();
    await service.restart();
    expect((await audit(`?target=${job}`)).items.map((e) => e.action)).toEqual([
      'job.cancel',
      'job.submit',
    ]);
  });
});
