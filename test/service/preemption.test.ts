import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptsAnswer, AuditPage, JobState, JobTransition } from '../../contract';
import { ContainerStarts } from '../support/engine-events';
import { ProjectKeys, until as waitUntil } from '../support/project-keys';
import { TEST_IMAGE, startService, testProjects, type TestService } from '../support/service';

/**
 * Reclaim by preemption through the real service on the local Docker Engine. The service runs 2
 * jobs at once; project a lends its quota of 1 job and takes it back at once (`reclaim:
 * preempt`), project b has a quota of 1 job and borrows a's while a is idle. b's two long jobs
 * hold both slots; a's job comes: b's younger job gets SIGTERM (its trap prints it) within its
 * grace, goes back to runnable with a note and a new attempt, a's job runs, and then b's job runs
 * again to completion, once; the engine's own events count the starts.
 */
let service: TestService;
let starts: ContainerStarts;
const keys = new ProjectKeys();

// Attempt 1 runs until it is stopped, printing the SIGTERM its trap receives; a later one ends.
const work = [
  "trap 'echo got SIGTERM; exit 143' TERM",
  'echo "attempt ${JOBDECK_ATTEMPT:-1} started"',
  'if [ "${JOBDECK_ATTEMPT:-1}" = 1 ]; then n=600; else n=1; fi',
  'i=0; while [ $i -lt $n ]; do sleep 1; i=$((i+1)); done',
  'echo "attempt ${JOBDECK_ATTEMPT:-1} done"',
].join('\n');
const definitions = {
  work: {
    '1': {
      image: TEST_IMAGE,
      command: ['sh', '-c', work],
      stop_grace_seconds: 20,
      resources: { cpus: 0.1, memory: '32m' },
    },
  },
  quick: {
    '1': {
      image: TEST_IMAGE,
      command: ['sh', '-c', 'sleep 2; echo lender done'],
      resources: { cpus: 0.1, memory: '32m' },
    },
  },
};

beforeAll(async () => {
  service = await startService({
    reconcile_interval_seconds: 1,
    max_running: 2,
    metrics: { on_api_port: true },
    projects: {
      ...testProjects(),
      a: {
        quota: { jobs: 1, reclaim: 'preempt' },
        queues: { default: { max_running: 2 } },
        definitions,
      },
      b: { quota: { jobs: 1 }, queues: { default: { max_running: 2 } }, definitions },
    },
  });
  await keys.create(service, ['a', 'b'], 'admin');
  starts = new ContainerStarts();
  await starts.started();
}, 120_000);
afterAll(async () => {
  starts?.stop();
  await service?.stop();
});

const submit = (project: 'a' | 'b', definition: 'work' | 'quick') =>
  keys.submit(service, project, {
    job_definition: `${project}::${definition}:1`,
    job_queue: `${project}::default`,
  });

/** Polls the job, read with its project's key, until it is in one of `states` (60 s at most). */
const waitFor = (id: string, ...states: JobState[]) =>
  waitUntil(
    `job ${id} to reach ${states.join('/')}`,
    async () => {
      const job = await keys.job(service, id);
      return states.includes(job.state) ? job : undefined;
    },
    { timeoutMs: 60_000, pollMs: 100 },
  );

describe('reclaim by preemption on the local Docker Engine', () => {
  it("stops the youngest borrowed job with its grace, runs the lender's job, then the preempted one again, once", async () => {
    const older = await submit('b', 'work');
    await waitFor(older, 'running');
    const younger = await submit('b', 'work');
    await waitFor(younger, 'running');

    const lender = await submit('a', 'quick');
    await waitFor(lender, 'completed');
    const again = await waitFor(younger, 'completed');
    expect(again.system_note).toBeNull();

    const reason = 'a reclaimed 1 job it lent';
    const transitions = await keys.readJob<{ items: JobTransition[] }>(
      service,
      younger,
      '/transitions',
    );
    const requeue = transitions.items.find((t) => t.from === 'running' && t.to === 'runnable');
    expect(requeue?.note).toBe(`preempted: ${reason}; will run again`);
    expect(transitions.items.map((t) => t.to)).toEqual([
      'submitted',
      'runnable',
      'starting',
      'running',
      'runnable',
      'starting',
      'running',
      'completed',
    ]);
    // Its first attempt was stopped with SIGTERM, which it printed; not a failure.
    const attempts = await keys.readJob<AttemptsAnswer>(service, younger, '/attempts');
    expect(attempts).toMatchObject({ attempt: 2, attempts_max: 2 });
    expect(attempts.items.map((a) => [a.attempt, a.state, a.exit_code, a.reason])).toEqual([
      [1, 'cancelled', 143, 'preempted'],
    ]);
    const first = await keys.readJob<{ text: string }>(service, younger, '/attempts/1/logs');
    expect(first.text).toBe('attempt 1 started\ngot SIGTERM\n');
    expect((await keys.readJob<{ text: string }>(service, younger, '/logs')).text).toBe(
      'attempt 2 started\nattempt 2 done\n',
    );
    // The older borrowed job ran on, untouched.
    const untouched = await keys.job(service, older);
    expect(untouched.state).toBe('running');

    const audit = await keys.read<AuditPage>(service, 'b', '/audit?action=job.preempt');
    expect(audit.items).toMatchObject([
      { actor: 'system:reclaim', target: younger, detail: { queue: 'b::default', reason } },
    ]);
    const metrics = await service.request('GET', '/metrics');
    expect(metrics.text).toContain('jobdeck_jobs_preempted_total{queue="b::default"} 1');

    // One container per attempt, as the engine itself counts its starts.
    const byJob = await starts.byJob();
    expect([byJob.get(younger), byJob.get(older), byJob.get(lender)]).toEqual([2, 1, 1]);
    const cancel = await service.request(
      'POST',
      `/v1/client/job/${older}/cancel`,
      undefined,
      keys.ofJob(older),
    );
    expect(cancel.status).toBe(202);
  });
});
