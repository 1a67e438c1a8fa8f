import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AttemptsAnswer,
  AttemptUsageAnswer,
  DefinitionSizing,
  JobExecution,
} from '../../contract';
import { submit, waitForState } from '../support/jobs';
import { TEST_IMAGE, startService, testProjects, type TestService } from '../support/service';

/** What a job used and why it died, read from real containers on the local Docker Engine. */
let service: TestService;
const MiB = 2 ** 20;
const LIMIT = 16 * MiB;

beforeAll(async () => {
  const projects = testProjects();
  Object.assign(projects.t.definitions as Record<string, object>, {
    // Takes 1 MiB more every 0.1 s until the kernel kills it at its 16 MiB limit (about 1.5 s):
    // slow enough for samples 0.2 s apart to see it near the limit.
    hog: {
      '1': {
        image: TEST_IMAGE,
        command: [
          'sh',
          '-c',
          'i=0; while :; do eval "v$i=\\$(head -c 1048576 /dev/zero | tr \'\\0\' a)"; i=$((i+1)); sleep 0.1; done',
        ],
        memory: '16m',
      },
    },
    // Each run holds 4 MiB for 4 s: the right-size hint's runs.
    sized: {
      '1': {
        image: TEST_IMAGE,
        command: ['sh', '-c', "v=$(head -c 4194304 /dev/zero | tr '\\0' a); sleep 4; echo ${#v}"],
        memory: '32m',
        cpus: 1,
      },
    },
    busy: {
      '1': {
        image: TEST_IMAGE,
        command: ['sh', '-c', 'Param::script'],
        parameters: { script: 'true' },
        memory: '32m',
        cpus: 1,
      },
    },
  });
  service = await startService({
    projects,
    reconcile_interval_seconds: 1,
    usage_sample_interval_seconds: 0.2,
  });
});
afterAll(async () => {
  if (process.env.USAGE_DEBUG) console.log(service.output());
  await service.stop();
});

const BIN = join(resolve(import.meta.dirname, '..', '..'), 'bin', 'jobdeck.js');

/** `jobdeck get ID`, the client verb as a terminal user runs it. */
const jobdeckGet = (id: string) => jobdeck('get', id);

/** A client verb of `jobdeck`, as a terminal user runs it. */
async function jobdeck(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, ...args], {
    env: {
      ...process.env,
      JOBDECK_URL: service.baseUrl,
      JOBDECK_API_KEY: service.key,
      JOBDECK_PROFILE_FILE: '/nonexistent',
    },
  });
  return stdout;
}

async function answer<T>(path: string): Promise<T> {
  const response = await service.request('GET', path);
  expect(response.status).toBe(200);
  return response.body.data as T;
}

describe('usage and the out-of-memory story, on real containers', () => {
  it('says a job killed by the kernel for memory ran out of it, at its limit, with the peak sampled near it', async () => {
    const id = await submit(service, { job_definition: 't::hog:1', retry: { attempts: 1 } });
    const job = await waitForState(service, id, 'failed', 60_000);
    expect(job.system_note).toMatch(
      /^killed: out of memory at its 16 MiB limit \(peak \d+\.\d MiB\)$/,
    );
    const attempts = await answer<AttemptsAnswer>(`/v1/client/job/${id}/attempts`);
    const [attempt] = attempts.items;
    expect(attempt).toMatchObject({ reason: 'oom_killed', exit_code: 137, note: job.system_note });
    const usage = attempt!.usage!;
    expect(usage.memory_limit_bytes).toBe(LIMIT);
    // It grows 1 MiB every 0.1 s: the last sample before the kill is at most a few MiB short.
    expect(usage.peak_memory_bytes).toBeGreaterThan(LIMIT / 2);
    expect(usage.peak_memory_bytes).toBeLessThanOrEqual(LIMIT);
    expect(job.system_note).toContain(`(peak ${(usage.peak_memory_bytes / MiB).toFixed(1)} MiB)`);
    expect(usage.memory_efficiency).toBeGreaterThan(0.5);
    const execution = await answer<JobExecution>(`/v1/client/job/${id}/execution`);
    expect(execution.usage).toEqual(usage);
  });

  it('reports a plausible peak, CPU time, wall time and efficiency for a job that ends by itself', async () => {
    const id = await submit(service, {
      job_definition: 't::busy:1',
      // Some CPU, then a rest: samples see both. The rest outlasts the Docker Engine's own stall:
      // in a container's first seconds its stats answer up to 0.8 s late (docs/engines.md).
      container_cmd_parameter: {
        script: 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; sleep 3',
      },
    });
    const job = await waitForState(service, id, 'completed', 60_000);
    expect(job.system_note).toBeNull();
    const usage = (await answer<JobExecution>(`/v1/client/job/${id}/execution`))
      .usage as AttemptUsageAnswer;
    expect(usage.attempt).toBe(1);
    expect(usage.samples).toBeGreaterThan(1);
    expect(usage.peak_memory_bytes).toBeGreaterThan(0);
    expect(usage.peak_memory_bytes).toBeLessThanOrEqual(32 * MiB);
    expect(usage.memory_limit_bytes).toBe(32 * MiB);
    expect(usage.cpus).toBe(1);
    expect(usage.cpu_ms).toBeGreaterThan(100);
    expect(usage.wall_ms).toBeGreaterThan(usage.cpu_ms);
    expect(usage.cpu_efficiency).toBeGreaterThan(0);
    expect(usage.cpu_efficiency).toBeLessThan(1);
    expect(usage.memory_efficiency).toBe(
      Math.round((usage.peak_memory_bytes / usage.memory_limit_bytes) * 1000) / 1000,
    );
    const shown = await jobdeckGet(id);
    expect(shown).toMatch(/^memory +\d+\.\d MiB (sampled )?peak of 32\.0 MiB \(\d+%\)$/m);
    expect(shown).toMatch(/^cpu time +\d+\.\d s in \d+\.\d s on 1 CPU \(\d+%\)$/m);
  });

  it('does not call a SIGKILL from inside the job out of memory', async () => {
    const id = await submit(service, {
      job_definition: 't::busy:1',
      container_cmd_parameter: { script: 'sleep 0.5; kill -9 $$' },
      retry: { attempts: 1 },
    });
    const job = await waitForState(service, id, 'failed', 60_000);
    expect(job.system_note).toBe('killed by signal 9 (not out of memory); exit code 137');
    const [attempt] = (await answer<AttemptsAnswer>(`/v1/client/job/${id}/attempts`)).items;
    expect(attempt).toMatchObject({ reason: 'exit', exit_code: 137 });
  });

  it("hints at a definition's right size from its recent runs, over the API and in jobdeck sizing", async () => {
    const path = `/v1/client/definitions/${encodeURIComponent('t::sized:1')}/sizing`;
    expect(await answer<DefinitionSizing>(path)).toMatchObject({
      runs: 0,
      enough_runs: false,
      memory: null,
      summary: 'not enough runs: 0 with usage figures, 5 needed',
    });
    // Seven, as a busy machine may take no sample of a short job before it ends.
    const ids = await Promise.all(
      Array.from({ length: 7 }, () => submit(service, { job_definition: 't::sized:1' })),
    );
    for (const id of ids) await waitForState(service, id, 'completed', 60_000);
    const executions = await Promise.all(
      ids.map((id) => answer<JobExecution>(`/v1/client/job/${id}/execution`)),
    );
    const sampled = executions.filter((execution) => execution.usage).length;
    expect(sampled).toBeGreaterThanOrEqual(5);
    const hint = await answer<DefinitionSizing>(path);
    expect(hint).toMatchObject({
      job_definition: 't::sized:1',
      runs: sampled,
      enough_runs: true,
      asked: { memory_bytes: 32 * MiB, cpus: 1 },
    });
    // 4 MiB held by a shell: more than 4 MiB at its peak, far below the 32 asked.
    const memory = hint.memory!;
    expect(memory.p95_peak_bytes).toBeGreaterThan(4 * MiB);
    expect(memory.p95_peak_bytes).toBeLessThan(24 * MiB);
    // Fewer than 20 runs: the p95 (nearest rank) is the largest.
    expect(memory.max_peak_bytes).toBe(memory.p95_peak_bytes);
    expect(memory.efficiency).toBe(Math.round((memory.p95_peak_bytes / (32 * MiB)) * 100) / 100);
    // Mostly asleep on one CPU.
    expect(hint.cpu!.runs).toBe(sampled);
    expect(hint.cpu!.efficiency).toBeLessThan(0.5);
    expect(hint.summary).toBe(
      `the last ${sampled} runs peaked at ${Math.round(memory.p95_peak_bytes / MiB)} MiB p95 of 32 MiB asked: ${memory.efficiency} efficiency; CPU time ${hint.cpu!.efficiency} of wall time × CPUs given (1 asked)`,
    );
    const shown = await jobdeck('sizing', 't::sized:1');
    expect(shown).toContain(`hint        ${hint.summary}\n`);
    expect(shown).toMatch(/^memory p95 +\d+\.\d MiB \(0\.\d+ of asked\)$/m);
    const unknown = await service.request(
      'GET',
      `/v1/client/definitions/${encodeURIComponent('t::nope:1')}/sizing`,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      ok: false,
      message: 'job_definition: no definition "t::nope:1" in this project',
    });
  });
});
