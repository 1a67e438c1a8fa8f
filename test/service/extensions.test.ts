import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OPERATION_ROLES,
  definitionListSchema,
  jobExecutionSchema,
  jobListSchema,
  jobLogsSchema,
  queueListSchema,
  type JobLogs,
  type JobState,
} from '../../contract';
import { detail, submit, waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service?.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function logs(id: string, since?: string | null): Promise<JobLogs> {
  const query = since ? `?since=${encodeURIComponent(since)}` : '';
  const response = await service.request('GET', `/v1/client/job/${id}/logs${query}`);
  expect(response.status, response.text).toBe(200);
  return jobLogsSchema.parse(response.body.data);
}

/** Reads a job's output as a console follows it: again and again from next_since until null. */
async function follow(id: string) {
  const answers: { logs: JobLogs; state: JobState }[] = [];
  let since: string | null = null;
  for (let round = 0; round < 600; round += 1) {
    const state = (await detail(service, id)).state;
    const answer = await logs(id, since);
    answers.push({ logs: answer, state });
    if (answer.next_since === null) return answers;
    since = answer.next_since;
    await sleep(200);
  }
  throw new Error(`job ${id} never ended its output`);
}

const sh = (script: string, extra: Record<string, unknown> = {}) =>
  submit(service, { job_definition: 't::sh:1', container_cmd_parameter: { script }, ...extra });

describe('logs while the job runs', () => {
  it('gives each read with since only the new lines, in order, with their streams', async () => {
    const script = 'for i in 1 2 3 4 5 6; do echo "out $i"; echo "err $i" >&2; sleep 0.5; done';
    const id = await sh(script);
    const answers = await follow(id);

    // Lines came while it ran, read from the engine, not only at the end.
    expect(answers.some((a) => a.state === 'running' && a.logs.lines.length > 0)).toBe(true);
    const lines = answers.flatMap((a) => a.logs.lines);
    const seen = lines.map((l) => `${l.stream} ${l.text}`);
    expect(new Set(seen).size).toBe(seen.length); // nothing twice
    const of = (stream: string) => lines.filter((l) => l.stream === stream).map((l) => l.text);
    expect(of('stdout')).toEqual([1, 2, 3, 4, 5, 6].map((i) => `out ${i}`));
    expect(of('stderr')).toEqual([1, 2, 3, 4, 5, 6].map((i) => `err ${i}`));
    const times = lines.map((l) => Date.parse(l.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const { logs: answer } of answers) {
      expect(answer.text).toBe(answer.lines.map((l) => `${l.text}\n`).join(''));
      expect(answer.truncated).toBe(false);
    }
    // After the end: the stored tail, all of it at once.
    const all = await logs(id);
    expect(all.lines).toEqual(lines);
    expect(all.next_since).toBeNull();
  });

  it('never shows a secret, not even one printed across lines, while it runs or after', async () => {
    const token = randomBytes(16).toString('hex');
    const key = `${randomBytes(8).toString('hex')}\n${randomBytes(8).toString('hex')}`;
    const script = 'echo "token $TOKEN"; sleep 1; echo "$KEY"; sleep 1; echo "key $KEY"; sleep 1';
    const id = await sh(script, {
      container_env: {
        TOKEN: { value: token, sensitive: true },
        KEY: { value: key, sensitive: true },
      },
    });
    const answers = await follow(id);
    const pieces = [token, ...key.split('\n')].flatMap((s) => [s.slice(0, 8), s.slice(-8)]);
    for (const { logs: answer } of [...answers, { logs: await logs(id) }]) {
      const body = JSON.stringify(answer);
      for (const piece of pieces) expect(body).not.toContain(piece);
    }
    expect(answers.flatMap((a) => a.logs.lines.map((l) => l.text))).toEqual([
      'token [TOKEN redacted]',
      '[KEY redacted]',
      '',
      'key [KEY redacted]',
      '',
    ]);
  });

  it('answers a job that has not started with no lines and a place to ask again from', async () => {
    const id = await submit(service, { job_definition: 't::echo:1', job_queue: 't::paused' });
    const waiting = await logs(id);
    expect(waiting).toMatchObject({ text: '', truncated: false, lines: [] });
    expect(waiting.next_since).not.toBeNull();
    expect((await logs(id, waiting.next_since)).next_since).toBe(waiting.next_since);
    const bad = await service.request('GET', `/v1/client/job/${id}/logs?since=yesterday`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^since: must be an RFC 3339 time/);
    await service.request('POST', `/v1/client/job/${id}/cancel`);
  });
});

describe('execution details', () => {
  it('tell what ran and where, the resolved command, and never a sensitive value', async () => {
    const secret = randomBytes(12).toString('hex');
    const id = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd: ['sh', '-c', 'Param::script', 'Param::script'],
      container_cmd_parameter: { script: 'exit 3' },
      container_env: {
        PLAIN: { value: 'visible' },
        TOKEN: { value: secret, sensitive: true },
      },
    });
    await waitForState(service, id, 'failed');
    const response = await service.request('GET', `/v1/client/job/${id}/execution`);
    expect(response.text).not.toContain(secret);
    const execution = jobExecutionSchema.parse(response.body.data);
    expect(execution).toMatchObject({
      job_definition: 't::sh:1',
      job_queue: 't::default',
      image: 'jobdeck/busybox:local',
      command: ['sh', '-c', 'exit 3', 'exit 3'],
      limits: { cpus: 1, memory_bytes: 512 * 1024 ** 2, timeout_seconds: 3600 },
      exit_code: 3,
      engine: 'docker',
      node: null,
    });
    expect(execution.env).toEqual([
      { name: 'FROM_DEFINITION', sensitive: false, value: 'def' },
      { name: 'OVERRIDDEN', sensitive: false, value: 'def' },
      { name: 'PLAIN', sensitive: false, value: 'visible' },
      { name: 'TOKEN', sensitive: true, value: null },
    ]);
    expect(execution.instance).toEqual(expect.any(String));
    // The engine's own times: for an instant exit its finish can precede its start by a little.
    const span = Date.parse(execution.finished_at!) - Date.parse(execution.started_at!);
    expect(execution.duration_ms).toBe(Math.max(0, span));
    const limited = await submit(service, { job_definition: 't::limited:1' });
    await waitForState(service, limited, 'completed');
    const own = await service.request('GET', `/v1/client/job/${limited}/execution`);
    expect(own.body.data).toMatchObject({ limits: { cpus: 0.5, memory_bytes: 64 * 1024 ** 2 } });
  });

  it("are a 404 for another project's job, like a missing one", async () => {
    const id = await submit(service, { job_definition: 't::echo:1', job_queue: 't::paused' });
    const otherKey = await service.cli('keys', 'create', '--project', 'other');
    const theirs = await service.request(
      'GET',
      `/v1/client/job/${id}/execution`,
      undefined,
      otherKey,
    );
    const missing = await service.request(
      'GET',
      '/v1/client/job/00000000-0000-4000-8000-000000000000/execution',
    );
    expect([theirs.status, missing.status]).toEqual([404, 404]);
    expect(theirs.body.message).toBe(`job_id: no job "${id}" in this project`);
    await service.request('POST', `/v1/client/job/${id}/cancel`);
  });
});

describe('queues', () => {
  it("list the project's queues by priority with their jobs counted by state", async () => {
    const before = queueListSchema.parse(
      (await service.request('GET', '/v1/client/queues')).body.data,
    );
    expect(
      before.items.map((q) => [q.queue, q.max_running, q.priority, q.paused, q.retention_seconds]),
    ).toEqual([
      // Finished jobs kept 14 days: the default.
      ['t::default', 4, 10, false, 1_209_600],
      ['t::paused', 4, 0, true, 1_209_600],
      ['t::single', 1, 0, false, 1_209_600],
    ]);
    const waiting = await Promise.all(
      [1, 2].map(() => submit(service, { job_definition: 't::echo:1', job_queue: 't::paused' })),
    );
    const done = await submit(service, { job_definition: 't::echo:1', job_queue: 't::single' });
    const failed = await sh('exit 1', { job_queue: 't::single' });
    await waitForState(service, done, 'completed');
    await waitForState(service, failed, 'failed');
    const after = queueListSchema.parse(
      (await service.request('GET', '/v1/client/queues')).body.data,
    );
    const queue = (ref: string) => ({
      before: before.items.find((q) => q.queue === ref)!,
      after: after.items.find((q) => q.queue === ref)!,
    });
    const paused = queue('t::paused');
    expect(paused.after.now.runnable - paused.before.now.runnable).toBe(2);
    // The job waiting longest is the earliest-created of the queue's waiting ones, by the list.
    const list = await service.request(
      'GET',
      '/v1/client/jobs?queue=t::paused&state=submitted,pending,runnable&limit=100',
    );
    const oldest = (list.body.data as { items: { id: string; name: string }[] }).items.at(-1)!;
    expect(paused.after.oldest_waiting).toMatchObject({ id: oldest.id, name: oldest.name });
    expect(Date.parse(paused.after.oldest_waiting!.since)).toBeLessThanOrEqual(Date.now());
    expect(queue('t::single').after.longest_running).toBeNull();
    const single = queue('t::single');
    for (const window of ['last_hour', 'last_day'] as const) {
      expect(single.after[window].completed - single.before[window].completed).toBe(1);
      expect(single.after[window].failed - single.before[window].failed).toBe(1);
    }
    for (const id of waiting) await service.request('POST', `/v1/client/job/${id}/cancel`);
  });
});

describe('queues: oldest waiting', () => {
  it('names only a job that could start now, never one scheduled for later', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const later = await submit(service, {
      job_definition: 't::echo:1',
      job_queue: 't::paused',
      schedule_at: tomorrow,
    });
    const ready = await submit(service, { job_definition: 't::echo:1', job_queue: 't::paused' });
    await waitForState(service, ready, 'runnable');
    const queues = queueListSchema.parse(
      (await service.request('GET', '/v1/client/queues')).body.data,
    );
    const paused = queues.items.find((q) => q.queue === 't::paused')!;
    // The earliest runnable one, by the list (newest first): scheduled jobs are not late.
    const list = await service.request(
      'GET',
      '/v1/client/jobs?queue=t::paused&state=runnable&limit=100',
    );
    const oldest = (list.body.data as { items: { id: string }[] }).items.at(-1)!;
    expect(paused.oldest_waiting?.id).toBe(oldest.id);
    expect(paused.oldest_waiting?.id).not.toBe(later);
    for (const id of [later, ready]) await service.request('POST', `/v1/client/job/${id}/cancel`);
  });
});

describe('whoami', () => {
  it("says the key's project and the service's version", async () => {
    const version = (
      JSON.parse(
        readFileSync(resolve(import.meta.dirname, '..', '..', 'package.json'), 'utf8'),
      ) as {
        version: string;
      }
    ).version;
    const mine = await service.request('GET', '/v1/client/whoami');
    expect(mine.body).toEqual({
      ok: true,
      data: {
        project: 't',
        role: 'admin',
        actor: expect.stringMatching(/^key:key_[0-9a-f]{12}$/) as string,
        exec: { enabled: false, supported: true },
        service: {
          name: 'jobdeck',
          version,
          engine: 'docker',
          engine_health: { reachable: true, unreachable_since: null, dispatch: 'running' },
        },
      },
    });
    const otherKey = await service.cli('keys', 'create', '--project', 'other');
    const theirs = await service.request('GET', '/v1/client/whoami', undefined, otherKey);
    expect((theirs.body.data as { project: string }).project).toBe('other');
  });
});

describe('definitions', () => {
  it("list the project's definitions with their command and defaults, env by name only", async () => {
    const response = await service.request('GET', '/v1/client/definitions');
    expect(response.status, response.text).toBe(200);
    const { items } = definitionListSchema.parse(response.body.data);
    expect(items.every((d) => d.job_definition.startsWith('t::'))).toBe(true);
    const sh = items.find((d) => d.job_definition === 't::sh:1');
    expect(sh).toMatchObject({
      name: 'sh',
      version: '1',
      command: ['sh', '-c', 'Param::script'],
      parameters: { script: 'true' },
      env_names: ['FROM_DEFINITION', 'OVERRIDDEN'],
      stop_grace_seconds: 10,
      network: 'none',
    });
    expect(JSON.stringify(items)).not.toContain('"def"'); // the definition's env values stay out
    const names = items.map((d) => d.name);
    expect(names).toEqual([...names].sort());
    expect(items.find((d) => d.job_definition === 't::limited:1')).toMatchObject({
      cpus: 0.5,
      memory_bytes: 64 * 1024 ** 2,
    });
  });

  it("show another project's key only that project's definitions", async () => {
    const otherKey = await service.cli('keys', 'create', '--project', 'other');
    const response = await service.request('GET', '/v1/client/definitions', undefined, otherKey);
    const { items } = definitionListSchema.parse(response.body.data);
    expect(items.map((d) => d.job_definition)).toEqual(['other::echo:1']);
  });
});

describe('the job list', () => {
  async function list(query: string) {
    const response = await service.request('GET', `/v1/client/jobs?${query}`);
    expect(response.status, response.text).toBe(200);
    return jobListSchema.parse(response.body.data);
  }

  it('filters by several states, queue, name prefix and creation time, end to end', async () => {
    const tag = randomBytes(4).toString('hex');
    const from = new Date().toISOString();
    const ok = await submit(service, { job_definition: 't::echo:1', name: `${tag}-ok` });
    const bad = await sh('exit 2', { name: `${tag}-bad` });
    const held = await submit(service, {
      job_definition: 't::echo:1',
      job_queue: 't::paused',
      name: `${tag}-held`,
    });
    await waitForState(service, ok, 'completed');
    await waitForState(service, bad, 'failed');
    const to = new Date(Date.now() + 1000).toISOString();
    const ids = async (query: string) => (await list(query)).items.map((j) => j.id);

    expect(await ids(`name=${tag}`)).toEqual([held, bad, ok]);
    expect(await ids(`name=${tag}&state=completed&state=failed`)).toEqual([bad, ok]);
    expect(await ids(`name=${tag}&state=completed,runnable`)).toEqual([held, ok]);
    expect(await ids(`name=${tag}&queue=t::paused`)).toEqual([held]);
    expect(await ids(`name=${tag}-b`)).toEqual([bad]);
    expect(await ids(`name=${tag.toUpperCase()}X`)).toEqual([]);
    expect(await ids(`name=${tag}&created_after=${from}&created_before=${to}`)).toEqual([
      held,
      bad,
      ok,
    ]);
    expect(await ids(`name=${tag}&created_before=${from}`)).toEqual([]);
    const row = (await list(`name=${tag}-bad`)).items[0]!;
    expect(row).toMatchObject({ state: 'failed', exit_code: 2, job_definition: 't::sh:1' });
    expect([row.started_at, row.finished_at]).toEqual([expect.any(String), expect.any(String)]);
    await service.request('POST', `/v1/client/job/${held}/cancel`);
  });

  it('names the field of a bad filter', async () => {
    const cases: [string, RegExp][] = [
      ['state=done', /^state\[0\]: /],
      ['created_after=yesterday', /^created_after: /],
      ['limit=0', /^limit: /],
      ['colour=red', /^colour: is not a parameter of this endpoint$/],
      ['cursor=abc', /^cursor: /],
      ['name=a%00b', /^name: must not contain NUL bytes$/],
      ['queue=t::default%00', /^queue: must look like <project>::<queue>$/],
      ['queue=t::default&queue=t::paused', /^queue: must be given once$/],
      ['limit=5&limit=6', /^limit: must be given once$/],
    ];
    for (const [query, message] of cases) {
      const response = await service.request('GET', `/v1/client/jobs?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.message, query).toMatch(message);
    }
  });

  it('says how many jobs match the filters, every page together', async () => {
    const tag = `count-${randomBytes(4).toString('hex')}`;
    for (let i = 0; i < 3; i += 1) {
      await submit(service, {
        job_definition: 't::echo:1',
        job_queue: 't::paused',
        name: `${tag}-${i}`,
      });
    }
    const page = await list(`name=${tag}&limit=2`);
    expect(page.items).toHaveLength(2);
    expect(page).toMatchObject({ total: 3, total_exact: true });
    expect(await list(`name=${tag}&state=completed`)).toMatchObject({ total: 0, items: [] });
  });

  it('pages through every job exactly once while others are submitted', async () => {
    const tag = `page-${randomBytes(4).toString('hex')}`;
    const existing: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      existing.push(
        await submit(service, {
          job_definition: 't::echo:1',
          job_queue: 't::paused',
          name: `${tag}-${i}`,
        }),
      );
    }
    let submitting = true;
    const concurrent = (async () => {
      const added: string[] = [];
      for (let i = 0; submitting && i < 200; i += 1) {
        added.push(
          await submit(service, {
            job_definition: 't::echo:1',
            job_queue: 't::paused',
            name: `${tag}-new-${i}`,
          }),
        );
      }
      return added;
    })();
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await list(`name=${tag}&limit=4${cursor}`);
      seen.push(...page.items.map((j) => j.id));
      if (!page.next_cursor) break;
      cursor = `&cursor=${page.next_cursor}`;
      await sleep(20);
    }
    submitting = false;
    const added = await concurrent;
    expect(added.length).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(seen.length); // no job twice
    for (const id of existing) expect(seen).toContain(id); // none skipped
    for (const id of [...existing, ...added])
      await service.request('POST', `/v1/client/job/${id}/cancel`);
  });
});

describe('the OpenAPI document', () => {
  it('describes every extension with its query parameters', async () => {
    const response = await service.request('GET', '/v1/openapi.json');
    const paths = response.body.paths as Record<
      string,
      Record<string, { parameters?: { name: string }[] }>
    >;
    // Every operation the service serves is documented, each with the role the service checks.
    const documented = Object.entries(paths)
      .filter(([path]) => path.startsWith('/v1/client/'))
      .flatMap(([path, operations]) =>
        Object.entries(operations as Record<string, { 'x-jobdeck-role'?: string }>).map(
          ([method, operation]) => `${method.toUpperCase()} ${path} ${operation['x-jobdeck-role']}`,
        ),
      );
    expect(documented.sort()).toEqual(
      Object.entries(OPERATION_ROLES)
        .map(([operation, role]) => `${operation} ${role}`)
        .sort(),
    );
    // What a receiver gets is documented as an OpenAPI webhook.
    const webhooks = response.body.webhooks as Record<string, unknown>;
    expect(JSON.stringify(webhooks.jobEvent)).toContain('#/components/schemas/WebhookEvent');
    const names = (path: string) => paths[path]!.get!.parameters!.map((p) => p.name);
    expect(names('/v1/client/job/{job_id}/logs')).toEqual(['job_id', 'since']);
    expect(names('/v1/client/job/{job_id}/attempts/{attempt}/logs')).toEqual(['job_id', 'attempt']);
    expect(names('/v1/client/events')).toEqual(['since', 'last-event-id']);
    expect(names('/v1/client/trends')).toEqual(['queue', 'range']);
    expect(names('/v1/client/job/{job_id}/array')).toEqual(['job_id', 'state', 'limit', 'cursor']);
    expect(names('/v1/client/jobs')).toEqual(
      expect.arrayContaining([
        'state',
        'queue',
        'name',
        'created_after',
        'created_before',
        'cursor',
      ]),
    );
    expect(JSON.stringify(paths['/v1/client/events'])).toContain('text/event-stream');
  });
});
