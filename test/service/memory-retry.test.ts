import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptsAnswer } from '../../contract';
import { SCRIPT_VARIABLES as SIMULATE } from '../../server/runtime/simulated/script';
import { submit, waitForState } from '../support/jobs';
import { TEST_IMAGE, startService, testProjects, type TestService } from '../support/service';
import { SIMULATED_SETTINGS } from './engines';

/**
 * retry.out_of_memory on real containers: an attempt the kernel kills at its memory limit is
 * tried again with its memory × factor, up to the definition's ceiling.
 */
const MiB = 2 ** 20;
const quick = { initial_seconds: 0.2, factor: 1, jitter: 0 };
/** Grows to 20 MiB of shell variables, then ends by itself: killed at 16 MiB, done at 32. */
const GROW_TO_20_MIB =
  'i=0; while [ $i -lt 20 ]; do eval "v$i=\\$(head -c 1048576 /dev/zero | tr \'\\0\' a)"; i=$((i+1)); done; echo "grew to $i MiB"';
/** Grows until the kernel kills it, whatever its limit. */
const GROW_FOREVER =
  'i=0; while :; do eval "v$i=\\$(head -c 1048576 /dev/zero | tr \'\\0\' a)"; i=$((i+1)); done';

function projectsWithGrow(script: string) {
  const projects = testProjects();
  Object.assign(projects.t.definitions as Record<string, object>, {
    grow: {
      '1': {
        image: TEST_IMAGE,
        command: ['sh', '-c', 'Param::script'],
        parameters: { script },
        memory: '16m',
        retry: {
          attempts: 3,
          backoff: quick,
          on_exit: [{ reason: 'oom_killed', action: 'retry' }],
          out_of_memory: { factor: 2, max_memory_bytes: 32 * MiB },
        },
      },
    },
  });
  return projects;
}

async function attemptsOf(service: TestService, id: string): Promise<AttemptsAnswer> {
  const response = await service.request('GET', `/v1/client/job/${id}/attempts`);
  expect(response.status).toBe(200);
  return response.body.data as AttemptsAnswer;
}

describe('retries with more memory after an out-of-memory kill, on the local Docker Engine', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({
      projects: projectsWithGrow(GROW_TO_20_MIB),
      reconcile_interval_seconds: 1,
      usage_sample_interval_seconds: 0.2,
    });
  });
  afterAll(() => service?.stop());

  it('runs the next attempt with twice the memory, and it completes: 16 MiB, then 32 MiB', async () => {
    const id = await submit(service, { job_definition: 't::grow:1' });
    const job = await waitForState(service, id, ['completed', 'failed'], 60_000);
    expect(job.state).toBe('completed');
    const { items } = await attemptsOf(service, id);
    expect(items.map((a) => [a.attempt, a.reason, a.memory_bytes])).toEqual([
      [1, 'oom_killed', 16 * MiB],
      [2, 'completed', 32 * MiB],
    ]);
    expect(items[0]!.note).toMatch(/^killed: out of memory at its 16 MiB limit/);
    expect(items[0]!.retried).toBe(true);
    // The engine applied the raised limit: the second attempt's sampled figures say so.
    expect(items[1]!.usage?.memory_limit_bytes).toBe(32 * MiB);
    const runnable = await service.request('GET', `/v1/client/job/${id}/transitions`);
    const notes = (runnable.body.data as { items: { note: string | null }[] }).items.map(
      (t) => t.note,
    );
    expect(notes).toContainEqual(
      expect.stringMatching(
        /^attempt 2 of 3 starts at \S+ with 32 MiB of memory \(attempt 1 was killed: out of memory at its 16 MiB limit/,
      ),
    );
  });

  it('stops at the ceiling: an attempt killed at the most memory allowed is not retried, and says so', async () => {
    const id = await submit(service, {
      job_definition: 't::grow:1',
      container_cmd_parameter: { script: GROW_FOREVER },
    });
    const job = await waitForState(service, id, 'failed', 60_000);
    expect(job.system_note).toMatch(
      /^killed: out of memory at its 32 MiB limit \(peak [^)]+\); not retried: it ran with 32 MiB, its out-of-memory retries' ceiling \(retry\.out_of_memory\.max_memory_bytes\)$/,
    );
    const { items } = await attemptsOf(service, id);
    expect(items.map((a) => [a.reason, a.memory_bytes, a.retried])).toEqual([
      ['oom_killed', 16 * MiB, true],
      ['oom_killed', 32 * MiB, false],
    ]);
  });

  it("refuses a submission's ceiling above what the definition allows, naming the field", async () => {
    const response = await service.request('POST', '/v1/client/job', {
      job_definition: 't::grow:1',
      job_queue: 't::default',
      retry: { attempts: 2, out_of_memory: { max_memory_bytes: 64 * MiB } },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      ok: false,
      message:
        'retry.out_of_memory.max_memory_bytes: asks for 64 MiB of memory; definition t::grow:1 allows at most 32 MiB of memory',
    });
  });
});

describe('retries with more memory after an out-of-memory kill, on the simulated engine', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({ ...SIMULATED_SETTINGS, projects: projectsWithGrow('true') });
  });
  afterAll(() => service?.stop());

  it('kills a job scripted past its limit, then runs it with twice the memory', async () => {
    const id = await submit(service, {
      job_definition: 't::grow:1',
      container_env: { [SIMULATE.memoryMib]: { value: '24' } },
    });
    const job = await waitForState(service, id, ['completed', 'failed'], 30_000);
    expect(job.state).toBe('completed');
    const { items } = await attemptsOf(service, id);
    expect(items.map((a) => [a.reason, a.memory_bytes])).toEqual([
      ['oom_killed', 16 * MiB],
      ['completed', 32 * MiB],
    ]);
  });
});
