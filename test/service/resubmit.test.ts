import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { AuditPage, JobExecution, ResubmitJobResult } from '../../contract';
import { detail, listPage, logsOf, submit, waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';

/** Sensitive values of this file: none may appear in any answer, log line or the store. */
const SECRET = `resubmit-secret-${randomBytes(8).toString('hex')}`;
const REPLACED = `replaced-secret-${randomBytes(8).toString('hex')}`;
const hashOf = (value: string) => createHash('sha256').update(value).digest('hex');

/** Prints the hash of TOKEN (or "unset") and PLAIN, then fails: a job worth submitting again. */
const PROBE = {
  job_definition: 't::sh:1',
  container_cmd_parameter: {
    script:
      'if [ -n "${TOKEN+x}" ]; then printf %s "$TOKEN" | sha256sum | cut -c1-64; else echo unset; fi; echo "plain=$PLAIN"; exit 3',
  },
};

let service: TestService;
let viewerKey: string;
let otherKey: string;
let source: string;

const resubmit = (id: string, body?: unknown, key?: string) =>
  service.request('POST', `/v1/client/job/${id}/resubmit`, body, key);

async function accepted(id: string, body?: unknown): Promise<ResubmitJobResult> {
  const answer = await resubmit(id, body);
  expect(answer.status, answer.text).toBe(202);
  expect(answer.text).not.toContain(SECRET);
  return answer.body.data as ResubmitJobResult;
}

/** The output of a job submitted again, once it ended (it fails, as its source did). */
async function outputOf(id: string): Promise<string> {
  const job = await waitForState(service, id, ['completed', 'failed', 'error'], 60_000);
  expect(job.state, job.system_note ?? '').toBe('failed');
  return logsOf(service, id);
}

beforeAll(async () => {
  service = await startService({ secret_key: randomBytes(32).toString('base64') });
  const keyOf = (output: string) => output.match(/jd_\S+/)![0];
  viewerKey = keyOf(await service.cli('keys', 'create', '--project', 't', '--role', 'viewer'));
  otherKey = keyOf(await service.cli('keys', 'create', '--project', 'other', '--role', 'admin'));
  source = await submit(service, {
    ...PROBE,
    container_env: { TOKEN: { value: SECRET, sensitive: true }, PLAIN: { value: 'p1' } },
    labels: { ticket: 'OPS-42' },
  });
  expect(await outputOf(source)).toBe(`${hashOf(SECRET)}\nplain=p1\n`);
}, 90_000);
afterAll(() => service.stop());

describe('submit again, the secret values kept in the service', () => {
  it('runs a new container with the original secret, never showing it', async () => {
    const result = await accepted(source);
    expect(result).toMatchObject({ resubmitted_from: source, kept_secrets: ['TOKEN'] });
    expect(result.id).not.toBe(source);
    expect(await outputOf(result.id)).toBe(`${hashOf(SECRET)}\nplain=p1\n`);

    const execution = (await service.request('GET', `/v1/client/job/${result.id}/execution`)).body
      .data as JobExecution;
    expect(execution.job_definition).toBe('t::sh:1');
    expect(execution.job_queue).toBe('t::default');
    expect(execution.env).toContainEqual({ name: 'TOKEN', sensitive: true, value: null });
    expect(execution.labels).toEqual({ ticket: 'OPS-42', 'jobdeck/resubmitted-from': source });

    // The audit trail names the job it came from (written in batches: wait for it).
    let audit: AuditPage | undefined;
    for (let i = 0; i < 50 && !audit?.items.length; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      audit = (
        await service.request('GET', `/v1/client/audit?action=job.resubmit&target=${result.id}`)
      ).body.data as AuditPage;
    }
    expect(audit?.items[0]?.detail).toEqual({ resubmitted_from: source, kept_secrets: ['TOKEN'] });

    for (const text of [service.output(), JSON.stringify(execution), JSON.stringify(audit)]) {
      expect(text).not.toContain(SECRET);
    }
  });

  it('replaces a secret, drops one, and changes what the body names', async () => {
    const replaced = await accepted(source, {
      container_env: { TOKEN: { value: REPLACED, sensitive: true }, PLAIN: { value: 'p2' } },
      name: 'again-by-hand',
    });
    expect(replaced.kept_secrets).toEqual([]);
    expect((await detail(service, replaced.id)).name).toBe('again-by-hand');
    expect(await outputOf(replaced.id)).toBe(`${hashOf(REPLACED)}\nplain=p2\n`);

    const dropped = await accepted(source, { drop_env: ['TOKEN'] });
    expect(dropped.kept_secrets).toEqual([]);
    expect(await outputOf(dropped.id)).toBe('unset\nplain=p1\n');
  });

  it('refuses, naming the field: unfinished, unknown, another project’s, a bad body', async () => {
    const waiting = await submit(service, { ...PROBE, job_queue: 't::paused' });
    const cases: [string, unknown, number, string][] = [
      [
        waiting,
        undefined,
        409,
        `job_id: job ${waiting} is runnable; a job is submitted again once it has ended`,
      ],
      [source, { drop_env: ['NOPE'] }, 400, `drop_env[0]: job ${source} has no variable "NOPE"`],
      [source, { job_queue: 't::nope' }, 400, 'job_queue: no queue "t::nope" is declared'],
      [
        source,
        { container_env: { TOKEN: 'x' } },
        400,
        'container_env.TOKEN: must be an object like { "value": "…", "sensitive": false }',
      ],
      [source, { image: 'x' }, 400, 'image: is not a field of this payload'],
    ];
    for (const [id, body, status, message] of cases) {
      const answer = await resubmit(id, body);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status,
        body: { ok: false, message },
      });
    }
    // Another project's job is as unknown as one that never was.
    const unknown = '01890000-0000-7000-8000-000000000000';
    for (const [id, key] of [
      [unknown, undefined],
      [source, otherKey],
    ] as const) {
      const answer = await resubmit(id, undefined, key);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 404,
        body: { ok: false, message: `job_id: no job "${id}" in this project` },
      });
    }
  });

  it('needs the operator role: a viewer is refused', async () => {
    const answer = await resubmit(source, undefined, viewerKey);
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ ok: false });
  });

  it('bulk resubmit: each ended job a filter matches submitted again once, its secret kept', async () => {
    const labels = { batch: 'retry-all' };
    const ended = await Promise.all(
      ['a', 'b'].map((value) =>
        submit(service, {
          ...PROBE,
          container_env: { TOKEN: { value: `${SECRET}-${value}`, sensitive: true } },
          labels,
        }),
      ),
    );
    for (const id of ended) await waitForState(service, id, 'failed', 60_000);
    const waiting = await submit(service, { ...PROBE, job_queue: 't::paused', labels });
    const filter = { label: ['batch=retry-all'] };

    const dry = await service.request('POST', '/v1/client/bulk-actions', {
      action: 'resubmit',
      filter,
      dry_run: true,
    });
    expect(dry.body.data).toMatchObject({
      action: 'resubmit',
      matched: 3,
      plan: { resubmitted: 2, skipped: 1 },
    });
    const started = await service.request('POST', '/v1/client/bulk-actions', {
      action: 'resubmit',
      filter,
    });
    expect(started.status, started.text).toBe(202);
    const { id: actionId } = started.body.data as { id: string };
    let action: { state: string } = { state: 'running' };
    while (action.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      action = (await service.request('GET', `/v1/client/bulk-actions/${actionId}`)).body
        .data as typeof action;
    }
    expect(action).toMatchObject({ state: 'done', matched: 3, accepted: 2, refused: 1 });

    const csv = (await service.request('GET', `/v1/client/bulk-actions/${actionId}/results`)).text;
    const rows = csv
      .trim()
      .split('\r\n')
      .slice(1)
      .map((row) => row.split(','));
    expect(rows.map(([id, , state, result]) => [id, state, result])).toEqual([
      [waiting, 'runnable', 'refused'],
      [ended[1], 'failed', 'accepted'],
      [ended[0], 'failed', 'accepted'],
    ]);
    expect(rows[0]![4]).toBe(
      `job_id: job ${waiting} is runnable; a job is submitted again once it has ended`,
    );
    // Each new job ran with its own source's secret.
    for (const [index, value] of ['b', 'a'].entries()) {
      const made = rows[index + 1]![4]!.replace('submitted again as ', '');
      expect(await outputOf(made)).toBe(`${hashOf(`${SECRET}-${value}`)}\nplain=\n`);
    }
    // The jobs it made name it and their source in their labels, so a list finds them.
    const made = await listPage(service, `label=jobdeck/bulk-action=${actionId}`);
    expect(made.items.map((job) => job.labels?.['jobdeck/resubmitted-from']).sort()).toEqual(
      [...ended].sort(),
    );
    expect(csv + service.output()).not.toContain(SECRET);
  });

  it('a secret whose key is gone is refused at its variable (409), never sent empty', async () => {
    await service.stop();
    const config = parse(readFileSync(service.configFile, 'utf8')) as Record<string, unknown>;
    config.secret_key = randomBytes(32).toString('base64');
    writeFileSync(service.configFile, stringify(config));
    await service.restart();

    const refused = await resubmit(source);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(
      new RegExp(
        `^container_env\\.TOKEN: the sensitive value of job ${source} can no longer be opened \\(the key that sealed it \\(id [0-9a-f]{12}\\) is no longer configured\\); give it again in container_env or leave it out with drop_env$`,
      ),
    );
    // Given again, or left out, it runs.
    const given = await accepted(source, {
      container_env: { TOKEN: { value: REPLACED, sensitive: true } },
    });
    expect(await outputOf(given.id)).toBe(`${hashOf(REPLACED)}\nplain=p1\n`);
    const dropped = await accepted(source, { drop_env: ['TOKEN'] });
    expect(await outputOf(dropped.id)).toBe('unset\nplain=p1\n');
    expect(service.output()).not.toContain(SECRET);
  });
});
