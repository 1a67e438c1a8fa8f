import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptsAnswer } from '../../contract';
import { ContainerStarts } from '../support/engine-events';
import { detail, logsOf, statesOf, submit, waitForState } from '../support/jobs';
import { startService, testProjects, type TestService } from '../support/service';

/** Retries on real containers: each attempt is a container of its own, recorded on its own. */
const starts = new ContainerStarts();
let service: TestService;

beforeAll(async () => {
  await starts.started();
  const projects = testProjects();
  // A definition that declares a strategy: its jobs retry unless a submission says otherwise.
  (projects.t.definitions as Record<string, object>).flaky = {
    '1': {
      image: 'jobdeck/busybox:local',
      command: ['sh', '-c', 'echo "attempt $JOBDECK_ATTEMPT"; [ "$JOBDECK_ATTEMPT" -ge 2 ]'],
      retry: { attempts: 3, backoff: { initial_seconds: 0.2, factor: 1, jitter: 0 } },
    },
  };
  service = await startService({ projects, reconcile_interval_seconds: 1 });
});
afterAll(async () => {
  await service.stop();
  starts.stop();
});

const quick = { initial_seconds: 0.2, factor: 1, jitter: 0 };

async function attemptsOf(id: string): Promise<AttemptsAnswer> {
  const response = await service.request('GET', `/v1/client/job/${id}/attempts`);
  expect(response.status).toBe(200);
  return response.body.data as AttemptsAnswer;
}

describe('retry strategies', () => {
  it('tries a failing job again until it succeeds: each attempt recorded with its exit code and output', async () => {
    const id = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd_parameter: {
        script: 'echo "attempt $JOBDECK_ATTEMPT"; [ "$JOBDECK_ATTEMPT" -ge 3 ] || exit 3',
      },
      retry: { attempts: 3, backoff: quick },
    });
    const job = await waitForState(service, id, 'completed');
    // Job Detail is the spec's record, whatever happened in between.
    expect(Object.keys(job).sort()).toEqual(
      ['created_at', 'id', 'name', 'schedule_at', 'state', 'system_note', 'updated_at'].sort(),
    );
    expect(await statesOf(service, id)).toEqual([
      'submitted',
      'runnable',
      'starting',
      'running',
      'runnable',
      'starting',
      'running',
      'runnable',
      'starting',
      'running',
      'completed',
    ]);
    const answer = await attemptsOf(id);
    expect(answer).toMatchObject({ attempt: 3, attempts_max: 3, next_attempt_at: null });
    expect(answer.retry?.backoff).toEqual({ ...quick, max_seconds: 300 });
    expect(answer.items.map((a) => [a.attempt, a.state, a.exit_code, a.reason, a.retried])).toEqual(
      [
        [1, 'failed', 3, 'exit', true],
        [2, 'failed', 3, 'exit', true],
        [3, 'completed', 0, 'completed', false],
      ],
    );
    for (const item of answer.items) expect(Date.parse(item.finished_at)).toBeGreaterThan(0);
    // The last attempt's output is the job's; the earlier ones' are kept with them.
    expect(await logsOf(service, id)).toBe('attempt 3\n');
    const first = await service.request('GET', `/v1/client/job/${id}/attempts/1/logs`);
    expect((first.body.data as { text: string }).text).toBe('attempt 1\n');
    const missing = await service.request('GET', `/v1/client/job/${id}/attempts/3/logs`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/^attempt: /);
    const bad = await service.request('GET', `/v1/client/job/${id}/attempts/zero/logs`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('attempt: must be an integer from 1 to 10');
    expect((await starts.byJob()).get(id)).toBe(3);
  });

  it('ends as its last attempt ended once the attempts are used', async () => {
    const id = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd_parameter: { script: 'exit 4' },
      retry: { attempts: 2, backoff: quick },
    });
    const job = await waitForState(service, id, 'failed');
    expect(job.system_note).toBe('exited with code 4');
    const answer = await attemptsOf(id);
    expect(answer.items.map((a) => [a.exit_code, a.retried])).toEqual([
      [4, true],
      [4, false],
    ]);
  });

  it('stops at once when the first matching rule says exit', async () => {
    const id = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd_parameter: { script: 'exit 4' },
      retry: {
        attempts: 5,
        backoff: quick,
        on_exit: [
          { exit_codes: ['1-5'], action: 'exit' },
          { exit_codes: [4], action: 'retry' },
        ],
      },
    });
    await waitForState(service, id, 'failed');
    expect((await attemptsOf(id)).items).toHaveLength(1);
    expect((await starts.byJob()).get(id)).toBe(1);
  });

  it('waits between attempts as runnable, saying which attempt starts when and why; a cancel ends the retries', async () => {
    const id = await submit(service, {
      job_definition: 't::sh:1',
      // Killed as the OOM killer kills (exit 137, retried by default), but not by it: the engine
      // says so, and so does the note.
      container_cmd_parameter: { script: 'kill -9 $$' },
      retry: { attempts: 3, backoff: { initial_seconds: 60 } },
    });
    // Runnable twice: before its first attempt, and waiting for its second.
    let waiting = await detail(service, id);
    for (const until = Date.now() + 30_000; !waiting.system_note?.startsWith('attempt 2');) {
      if (Date.now() > until) throw new Error(`never waited for attempt 2: ${waiting.system_note}`);
      await new Promise((r) => setTimeout(r, 100));
      waiting = await detail(service, id);
    }
    expect(waiting.state).toBe('runnable');
    expect(waiting.system_note).toMatch(
      /^attempt 2 of 3 starts at \d{4}-\d\d-\d\dT[\d:.]+Z \(attempt 1 was killed by signal 9 \(not out of memory\); exit code 137\)$/,
    );
    const answer = await attemptsOf(id);
    expect(answer.attempt).toBe(2);
    const wait = Date.parse(answer.next_attempt_at!) - Date.now();
    // 60 s less up to 20 % jitter, less the time since.
    expect(wait).toBeGreaterThan(40_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    const cancel = await service.request('POST', `/v1/client/job/${id}/cancel`);
    expect(cancel.status).toBe(202);
    expect((await detail(service, id)).state).toBe('cancelled');
    expect((await attemptsOf(id)).items.map((a) => a.exit_code)).toEqual([137]);
    expect((await starts.byJob()).get(id)).toBe(1);
  });

  it("runs a definition's strategy, and a submission's instead when it gives one", async () => {
    const declared = await submit(service, { job_definition: 't::flaky:1' });
    await waitForState(service, declared, 'completed');
    expect((await attemptsOf(declared)).items.map((a) => a.state)).toEqual(['failed', 'completed']);
    const replaced = await submit(service, {
      job_definition: 't::flaky:1',
      retry: { attempts: 1 },
    });
    await waitForState(service, replaced, 'failed');
    const answer = await attemptsOf(replaced);
    expect(answer).toMatchObject({ attempts_max: 1 });
    expect(answer.items).toHaveLength(1);
    const definitions = await service.request('GET', '/v1/client/definitions');
    const flaky = (
      definitions.body.data as { items: { job_definition: string; retry?: object }[] }
    ).items.find((d) => d.job_definition === 't::flaky:1');
    expect(flaky?.retry).toMatchObject({ attempts: 3 });
  });

  it('refuses a bad strategy at its field and stores nothing', async () => {
    const cases: [object, RegExp][] = [
      [{ attempts: 11 }, /^retry\.attempts: must be an integer from 1 to 10$/],
      [
        { attempts: 2, backoff: { factor: 0.5 } },
        /^retry\.backoff\.factor: must be a number from 1 to 10$/,
      ],
      [
        { attempts: 2, on_exit: [{ action: 'retry' }] },
        /^retry\.on_exit\[0\]: must have at least one matcher: exit_codes, reason or status$/,
      ],
      [
        { attempts: 2, on_exit: [{ exit_codes: ['9-3'], action: 'retry' }] },
        /^retry\.on_exit\[0\]\.exit_codes\[0\]: must be an integer from 0 to 255 or a range like "1-5"$/,
      ],
      [{ attempts: 2, extra: true }, /^retry\.extra: is not a field of this payload$/],
      // Past the integers a double holds exactly, two checks fail alike: said once.
      [{ attempts: 1e308 }, /^retry\.attempts: must be an integer from 1 to 10$/],
    ];
    for (const [retry, message] of cases) {
      const response = await service.request('POST', '/v1/client/job', {
        job_definition: 't::echo:1',
        job_queue: 't::default',
        retry,
      });
      expect(response.status, JSON.stringify(retry)).toBe(400);
      expect(response.body).toEqual({ ok: false, message: expect.stringMatching(message) });
    }
  });

  it('keeps the retries across a kill -9 of the service between attempts: no attempt lost or run twice', async () => {
    const id = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd_parameter: { script: '[ "$JOBDECK_ATTEMPT" -ge 2 ] || exit 1' },
      retry: { attempts: 2, backoff: { initial_seconds: 3, jitter: 0 } },
    });
    for (const until = Date.now() + 30_000; (await attemptsOf(id)).items.length === 0;) {
      if (Date.now() > until) throw new Error('the first attempt never ended');
      await new Promise((r) => setTimeout(r, 50));
    }
    await service.stop('SIGKILL');
    await service.restart();
    await waitForState(service, id, 'completed');
    expect((await attemptsOf(id)).items.map((a) => a.state)).toEqual(['failed', 'completed']);
    expect((await starts.byJob()).get(id)).toBe(2);
  });
});
