import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArrayAnswer, JobRecord } from '../../contract';
import { PrivateEngine } from '../support/private-engine';
import { startService, type TestService } from '../support/service';
import { detail, shScript, submit, waitForState } from '../support/jobs';
import { budget, recordFigure } from './figures';

/**
 * The engine fails under running jobs: killed, stopped gracefully, a container removed behind
 * the service's back. A private dockerd takes the faults, never the machine's shared one.
 */
const OUTAGE_MS = budget({ ci: 8_000, full: 30_000 });
const INTERVAL_S = 1;

let engine: PrivateEngine;
let service: TestService;
beforeAll(async () => {
  engine = new PrivateEngine();
  await engine.start();
  service = await startService({
    engine: { type: 'docker', socket: engine.socket },
    reconcile_interval_seconds: INTERVAL_S,
  });
}, 120_000);
afterAll(async () => {
  await service?.stop();
  await engine?.destroy();
}, 120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds; returns how long it took. */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
  return Date.now() - started;
}

const health = async () => (await service.request('GET', '/v1/health', undefined, null)).status;

async function outage(signal: 'SIGKILL' | 'SIGTERM') {
  const running = await Promise.all(
    Array.from({ length: 3 }, () =>
      submit(service, {
        job_definition: 't::sleep:1',
        container_cmd_parameter: { seconds: '300' },
      }),
    ),
  );
  const cancelled = await submit(service, { job_definition: 't::stubborn:1' });
  for (const id of [...running, cancelled]) await waitForState(service, id, 'running');
  await service.request('POST', `/v1/client/job/${cancelled}/cancel`);

  const faultAt = Date.now();
  await engine.stop(signal);
  const detectMs = await until(async () => (await health()) === 503, 10_000, 'health to say 503');
  // Submits keep working; the jobs wait for the engine and say so.
  const during = await submit(service, { job_definition: 't::echo:1' });
  const waiting = await waitForState(service, during, 'runnable');
  expect(waiting.system_note).toMatch(/^waiting for the container engine: unreachable since /);
  const active = await detail(service, running[0]!);
  expect(active.state).toBe('running');
  expect(active.system_note).toMatch(/^the container engine is unreachable since /);
  await sleep(Math.max(0, OUTAGE_MS - (Date.now() - faultAt)));

  await engine.start();
  const backAt = Date.now();
  const settled: JobRecord[] = [];
  for (const id of running) settled.push(await waitForState(service, id, 'error', 60_000));
  const settleMs = Date.now() - backAt;
  for (const job of settled) {
    expect(job.system_note).toMatch(/while the container engine was stopped or unreachable/);
  }
  expect((await waitForState(service, cancelled, 'cancelled', 60_000)).system_note).toMatch(
    /^cancelled on request; the container exited with code \d+$/,
  );
  await waitForState(service, during, 'completed', 60_000);
  const resumeMs = Date.now() - backAt;
  expect(await health()).toBe(200);
  // Every container of a settled job removed: the runner removes a container only after its
  // outcome is stored, so the last one may still be going when the job reads completed.
  await until(
    async () => engine.docker('ps', '-aq') === '',
    15_000,
    'every container removed',
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${engine.docker('ps', '-a', '--no-trunc')}`);
  });
  return { detectMs, settleMs, resumeMs };
}

async function arrayOf(id: string): Promise<ArrayAnswer> {
  const response = await service.request('GET', `/v1/client/job/${id}/array`);
  expect(response.status, response.text).toBe(200);
  return response.body.data as ArrayAnswer;
}

describe('engine faults', () => {
  it('survives the engine killed (SIGKILL) while jobs run and submits arrive', async () => {
    const { detectMs, settleMs, resumeMs } = await outage('SIGKILL');
    recordFigure('engine SIGKILL: fault → health 503', detectMs, 'ms');
    recordFigure('engine SIGKILL: engine back → running jobs settled', settleMs, 'ms');
    recordFigure(
      'engine SIGKILL: engine back → a job submitted meanwhile completed',
      resumeMs,
      'ms',
    );
  });

  it('survives the engine stopped gracefully while jobs run and submits arrive', async () => {
    const { detectMs, settleMs, resumeMs } = await outage('SIGTERM');
    recordFigure('engine stop: fault → health 503', detectMs, 'ms');
    recordFigure('engine stop: engine back → running jobs settled', settleMs, 'ms');
    recordFigure('engine stop: engine back → a job submitted meanwhile completed', resumeMs, 'ms');
  });

  it("keeps the exit codes of an array's children that ended while the engine was killed", async () => {
    // Four children (the queue's four slots), each ending by itself at one instant well after the
    // engine is killed: odd indexes exit 1, even ones 0. The engine keeps what each exit was.
    const exitAt = Math.ceil((Date.now() + 10_000) / 1000);
    const parent = await submit(service, {
      ...shScript(
        `until [ "$(date +%s)" -ge ${exitAt} ]; do sleep 0.2; done; exit $((JOBDECK_ARRAY_INDEX % 2))`,
      ),
      array: { size: 4 },
    });
    await until(async () => (await arrayOf(parent)).counts.running === 4, 30_000, 'all running');
    expect(Date.now(), 'the children ran too late to end during the outage').toBeLessThan(
      exitAt * 1000 - 3_000,
    );
    await engine.stop('SIGKILL');
    await until(async () => (await health()) === 503, 10_000, 'health to say 503');
    await sleep(exitAt * 1000 + 1_500 - Date.now());
    await engine.start();
    const backAt = Date.now();

    const done = await waitForState(service, parent, ['completed', 'failed', 'cancelled'], 60_000);
    recordFigure(
      'engine SIGKILL: engine back → an array whose children ended meanwhile settled',
      Date.now() - backAt,
      'ms',
    );
    const answer = await arrayOf(parent);
    expect(answer.items.map((c) => [c.index, c.state, c.exit_code, c.system_note])).toEqual([
      [0, 'completed', 0, null],
      [1, 'failed', 1, 'exited with code 1'],
      [2, 'completed', 0, null],
      [3, 'failed', 1, 'exited with code 1'],
    ]);
    // The parent's note is its counts, state by state.
    expect(answer.counts).toEqual({ completed: 2, failed: 2 });
    expect([done.state, done.system_note]).toEqual(['failed', '2 of 4 completed, 2 failed']);
  });

  it('ends a job whose container was removed behind its back as error, with a note', async () => {
    const id = await submit(service, { job_definition: 't::sleep:1' });
    await waitForState(service, id, 'running');
    const removedAt = Date.now();
    engine.docker('rm', '-f', `jobdeck-${id}`);
    const job = await waitForState(service, id, 'error', 30_000);
    recordFigure('container removed outside Jobdeck → job error', Date.now() - removedAt, 'ms');
    expect(job.system_note).toMatch(/^the container vanished \(removed outside Jobdeck\?\)/);
  });
});
