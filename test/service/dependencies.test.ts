import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DependenciesAnswer, JobRecord } from '../../contract';
import { ContainerStarts } from '../support/engine-events';
import { detail, movedAt, submit, waitForState, shScript as script } from '../support/jobs';
import { startService, type TestService } from '../support/service';

/** Dependencies on real containers: a job starts only once what it waits for ended as asked. */
const starts = new ContainerStarts();
let service: TestService;

beforeAll(async () => {
  await starts.started();
  service = await startService({ reconcile_interval_seconds: 1 });
});
afterAll(async () => {
  await service.stop();
  starts.stop();
});

async function dependenciesOf(id: string): Promise<DependenciesAnswer> {
  const response = await service.request('GET', `/v1/client/job/${id}/dependencies`);
  expect(response.status).toBe(200);
  return response.body.data as DependenciesAnswer;
}

const jobCount = async () =>
  ((await service.request('GET', '/v1/client/jobs?limit=1')).body.data as { total: number }).total;

describe('dependencies', () => {
  it('runs a chain in order: each job pending, saying what it waits for, until the one before completed', async () => {
    const first = await submit(service, script('sleep 1'));
    const second = await submit(service, {
      ...script('true'),
      depends_on: [{ job_id: first }],
    });
    const third = await submit(service, {
      ...script('true'),
      depends_on: [{ job_id: second, type: 'afterok' }],
    });
    const waiting = await detail(service, second);
    expect(waiting.state).toBe('pending');
    expect(waiting.system_note).toMatch(
      new RegExp(`^waiting for job sh-\\w+ \\(${first}\\) to complete \\(it is \\w+\\)$`),
    );
    // Job Detail stays the spec's record.
    expect(Object.keys(waiting).sort()).toEqual(
      ['created_at', 'id', 'name', 'schedule_at', 'state', 'system_note', 'updated_at'].sort(),
    );
    const answer = await dependenciesOf(second);
    expect(answer.depends_on).toEqual([
      expect.objectContaining({ job_id: first, type: 'afterok', status: 'waiting' }),
    ]);
    expect(answer.dependents).toEqual([
      expect.objectContaining({ job_id: third, type: 'afterok', state: 'pending' }),
    ]);
    expect(answer.dependents_total).toBe(1);

    await waitForState(service, third, 'completed');
    expect(await movedAt(service, second, 'starting')).toBeGreaterThanOrEqual(
      await movedAt(service, first, 'completed'),
    );
    expect(await movedAt(service, third, 'starting')).toBeGreaterThanOrEqual(
      await movedAt(service, second, 'completed'),
    );
    expect((await dependenciesOf(first)).dependents).toEqual([
      expect.objectContaining({ job_id: second, state: 'completed', status: 'met' }),
    ]);
    for (const id of [first, second, third]) expect((await starts.byJob()).get(id)).toBe(1);
  });

  it('follows each type: afterok is cancelled with a note when the job fails (and so is what waits for it), afternotok and afterany run', async () => {
    const failing = await submit(service, script('sleep 1; exit 3'));
    const onSuccess = await submit(service, {
      ...script('true'),
      depends_on: [{ job_id: failing }],
    });
    const chained = await submit(service, {
      ...script('true'),
      depends_on: [{ job_id: onSuccess }],
    });
    const onFailure = await submit(service, {
      ...script('true'),
      depends_on: [{ job_id: failing, type: 'afternotok' }],
    });
    const onAny = await submit(service, {
      ...script('true'),
      depends_on: [{ job_id: failing, type: 'afterany' }],
    });

    const cancelled = await waitForState(service, onSuccess, 'cancelled');
    expect(cancelled.system_note).toBe(
      `cancelled: it was to start after job ${(await detail(service, failing)).name} (${failing}) to complete (afterok), which ended failed`,
    );
    expect((await waitForState(service, chained, 'cancelled')).system_note).toMatch(
      new RegExp(
        `^cancelled: it was to start after job sh-\\w+ \\(${onSuccess}\\) .*ended cancelled$`,
      ),
    );
    await waitForState(service, onFailure, 'completed');
    await waitForState(service, onAny, 'completed');
    expect((await starts.byJob()).get(onSuccess)).toBeUndefined();
    expect((await dependenciesOf(onSuccess)).depends_on).toEqual([
      expect.objectContaining({ job_id: failing, state: 'failed', status: 'unmeetable' }),
    ]);
  });

  it('waits for every dependency, says how many are left, and cancels when one is cancelled before it starts', async () => {
    const quick = await submit(service, script('true'));
    const held = await submit(service, { ...script('true'), job_queue: 't::paused' });
    const both = await submit(service, {
      ...script('true'),
      depends_on: [{ job_id: quick }, { job_id: held, type: 'afterany' }],
    });
    await waitForState(service, quick, 'completed');
    const note = async () => (await detail(service, both)).system_note;
    for (const until = Date.now() + 10_000; !(await note())?.startsWith('waiting for 1 of 2');) {
      if (Date.now() > until) throw new Error(`never said one of two left: ${await note()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await note()).toMatch(new RegExp(`\\(${held}\\) to end \\(it is runnable\\)$`));

    // afterany is met by a cancel; an afterok on the same job would not be.
    const strict = await submit(service, { ...script('true'), depends_on: [{ job_id: held }] });
    expect((await service.request('POST', `/v1/client/job/${held}/cancel`)).status).toBe(202);
    await waitForState(service, both, 'completed');
    expect((await waitForState(service, strict, 'cancelled')).system_note).toMatch(
      /to complete \(afterok\), which ended cancelled$/,
    );
  });

  it('lets a waiting job be cancelled on request like any pending one', async () => {
    const long = await submit(service, { ...script('true'), job_queue: 't::paused' });
    const waiting = await submit(service, { ...script('true'), depends_on: [{ job_id: long }] });
    expect((await service.request('POST', `/v1/client/job/${waiting}/cancel`)).status).toBe(202);
    expect((await detail(service, waiting)).state).toBe('cancelled');
    await service.request('POST', `/v1/client/job/${long}/cancel`);
  });

  it('refuses at the field what can never be met: unknown, other projects, ended otherwise, repeated, too many, bad types', async () => {
    const failed = await submit(service, script('exit 1'));
    await waitForState(service, failed, 'failed');
    const otherKey = await service.cli('keys', 'create', '--project', 'other');
    const theirs = await service.request(
      'POST',
      '/v1/client/job',
      { job_definition: 'other::echo:1', job_queue: 'other::default' },
      otherKey,
    );
    const theirId = (theirs.body.data as { id: string }).id;
    const unknown = '01900000-0000-7000-8000-000000000000';
    const cases: [unknown, RegExp][] = [
      [
        [{ job_id: unknown }],
        new RegExp(`^depends_on\\[0\\]\\.job_id: no job ${unknown} in this project$`),
      ],
      [
        [{ job_id: failed, type: 'afterany' }, { job_id: theirId }],
        /^depends_on\[1\]\.job_id: no job .* in this project$/,
      ],
      [
        [{ job_id: failed }],
        /^depends_on\[0\]\.job_id: job sh-\w+ \(.*\) ended failed, so a job waiting for it to complete \(afterok\) could never start$/,
      ],
      [[{ job_id: failed }, { job_id: failed }], /^depends_on: must name each job once$/],
      [
        Array.from({ length: 21 }, (_, i) => ({
          job_id: `01900000-0000-7000-8000-0000000000${String(i).padStart(2, '0')}`,
        })),
        /^depends_on: must have at most 20 dependencies$/,
      ],
      [
        [{ job_id: failed, type: 'after' }],
        /^depends_on\[0\]\.type: must be one of afterok, afterany, afternotok, n_to_n, sequential$/,
      ],
      [[{ job_id: 'nope' }], /^depends_on\[0\]\.job_id: must be a job id/],
      [[], /^depends_on: must name at least one job/],
      ['x', /^depends_on: must be an array/],
    ];
    for (const [dependsOn, message] of cases) {
      const before = await jobCount();
      const response = await service.request('POST', '/v1/client/job', {
        ...script('true'),
        job_queue: 't::default',
        depends_on: dependsOn,
      });
      expect(response.status, JSON.stringify(dependsOn)).toBe(400);
      expect(response.body).toEqual({ ok: false, message: expect.stringMatching(message) });
      // Nothing stored.
      expect(await jobCount()).toBe(before);
    }
    // afternotok on the failed job is met: it runs at once.
    const cleanup = await submit(service, {
      ...script('true'),
      depends_on: [{ job_id: failed, type: 'afternotok' }],
    });
    await waitForState(service, cleanup, 'completed');
  });

  it('keeps a chain across a kill -9 of the service: the waiting job runs once, after the first', async () => {
    const first = await submit(service, script('sleep 2'));
    const second = await submit(service, { ...script('true'), depends_on: [{ job_id: first }] });
    await waitForState(service, first, 'running');
    await service.stop('SIGKILL');
    await service.restart();
    const done: JobRecord = await waitForState(service, second, 'completed');
    expect(done.state).toBe('completed');
    expect(await movedAt(service, second, 'starting')).toBeGreaterThanOrEqual(
      await movedAt(service, first, 'completed'),
    );
    expect((await starts.byJob()).get(first)).toBe(1);
    expect((await starts.byJob()).get(second)).toBe(1);
  });
});
