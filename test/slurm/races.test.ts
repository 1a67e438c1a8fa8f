import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContainerRuntime, Workload } from '../../server/jobs/ports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLURM_ROW } from '../engine/engines';
import { logsOf, shScript, submit, waitForState } from '../support/jobs';
import { underWay } from '../support/slurm';
import { batchScriptPid, leftInWorkDir, slurmJobsOf, slurmServiceForFile } from './slurm';

// The three races the suite lost beside the other CI suites on a loaded machine, made wide here.
const context = slurmServiceForFile();

const slurmJobOf = (jobId: string) => slurmJobsOf(jobId)[0]!.split(' ')[0]!;

describe('a cancelled job whose batch script Slurm kills before it wrote the exit status', () => {
  it('keeps its exit code and output: the Epilog records them before it removes the container', async () => {
    const { service } = context;
    const id = await submit(
      service,
      shScript("trap '' TERM; echo before the cancel; sleep 30 & wait; sleep 30"),
    );
    await waitForState(service, id, 'running');
    // Held stopped, as a script on a loaded node that has not reached its end when Slurm's
    // SIGKILL comes (KillWait after the scancel): stopped again at once after each SIGCONT that
    // Slurm sends before its signals, it writes no exit status.
    const script = batchScriptPid(slurmJobOf(id));
    const holding = setInterval(() => {
      try {
        process.kill(script, 'SIGSTOP');
      } catch {
        clearInterval(holding); // killed: gone
      }
    }, 1);
    try {
      expect((await service.request('POST', `/v1/client/job/${id}/cancel`)).status).toBe(202);
      await expect.poll(() => existsSync(`/proc/${script}`), { timeout: 60_000 }).toBe(false);
    } finally {
      clearInterval(holding);
    }
    const job = await waitForState(service, id, 'cancelled', 60_000);
    expect(job.system_note).toBe('cancelled on request; the container exited with code 137');
    expect(await logsOf(service, id)).toBe('before the cancel\n');
  });
});

describe("the Slurm engine's remove of a running workload", () => {
  const runtime = SLURM_ROW.runtime();
  afterAll(() => SLURM_ROW.cleanup());

  it('resolves once its Slurm job has ended, when nothing writes into its directory any more', async () => {
    const spec = SLURM_ROW.spec('runs');
    await runtime.launch(spec);
    await expect
      .poll(async () => (await runtime.inspect(spec.jobId))?.status, { timeout: 60_000 })
      .toBe('running');
    const [workload] = (await runtime.list()).filter((w) => w.jobId === spec.jobId);
    await runtime.remove(workload!);
    // Its batch script answers the scancel, and the Epilog runs, before the Slurm job has ended.
    expect(underWay([workload!.id])).toBe(false);
    expect(leftInWorkDir(spec.jobId)).toBe('');
    expect(await runtime.inspect(spec.jobId)).toBeNull();
  });
});

describe('a job that ends while its Slurm state is read', () => {
  // squeue answering 2 s late, as a loaded controller or machine does: the job ends meanwhile.
  const bin = mkdtempSync(join(tmpdir(), 'jobdeck-slow-squeue-'));
  const squeue = execFileSync('which', ['squeue']).toString().trim();
  writeFileSync(join(bin, 'squeue'), `#!/bin/sh\nsleep 2\nexec ${squeue} "$@"\n`, { mode: 0o755 });
  let runtime: ContainerRuntime;
  beforeAll(() => {
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    runtime = SLURM_ROW.runtime(); // its Slurm commands keep the PATH they were made with
    process.env.PATH = path;
  });
  afterAll(async () => {
    await SLURM_ROW.cleanup();
    rmSync(bin, { recursive: true, force: true });
  });

  it('ends with the exit status its script wrote, however the listings fall around its end', async () => {
    const spec = {
      ...SLURM_ROW.spec('prints-and-exits-3'),
      command: ['sh', '-c', 'sleep 8; exit 3'],
    };
    await runtime.launch(spec);
    // Listings 0.4 s apart, each one's squeue 2 s long: one of them reads the attempt's files
    // before the script wrote the exit status and Slurm's state after Slurm ended the job.
    const seen: Workload[] = [];
    const watch = async (delayMs: number) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
        const workload = (await runtime.list()).find(({ jobId }) => jobId === spec.jobId);
        if (workload?.status === 'exited') return seen.push(workload);
      }
    };
    await Promise.all([0, 400, 800, 1200, 1600].map(watch));
    expect(seen.map(({ exitCode, message }) => ({ exitCode, message }))).toEqual(
      Array(5).fill({ exitCode: 3, message: null }),
    );
  });
});
