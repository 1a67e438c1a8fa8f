import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { engineLogDriver } from '../job-container';
import { JobFiles } from './job-files';
import { SlurmRuntime } from './slurm-runtime';

// The cluster's answers, from a squeue of the test's on PATH (test/slurm runs the real cluster).
const root = mkdtempSync(join(tmpdir(), 'jobdeck-slurm-runtime-'));
const bin = join(root, 'bin');
const workDir = join(root, 'work');
const path = process.env.PATH;

afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  process.env.PATH = `${bin}:${path}`;
});
afterEach(() => {
  process.env.PATH = path;
});

/**
 * An attempt whose container runs, and a squeue that answers as one does when the job ends while
 * it runs: its batch script writes the exit status, then Slurm says COMPLETED.
 */
async function endingWhileSqueueRuns(jobId: string): Promise<SlurmRuntime> {
  const attempt = { jobId, attempt: 1 };
  const files = new JobFiles(workDir, 'store');
  const dir = await files.make(attempt);
  await files.recordSlurmJob(attempt, '42');
  const now = Math.floor(Date.now() / 1000);
  writeFileSync(join(dir, 'started'), `${(now - 2) * 1000}\n`);
  rmSync(bin, { recursive: true, force: true });
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'squeue'),
    `#!/bin/sh
sleep 0.5
printf '0 false\\n' >'${dir}/exit.new' && mv '${dir}/exit.new' '${dir}/exit'
echo '42|jobdeck.store.${jobId}.1|COMPLETED|${now - 2}|${now}|vm|1|64M|None'
`,
    { mode: 0o755 },
  );
  return new SlurmRuntime({
    conf: undefined,
    workDir,
    partition: undefined,
    queuePartitions: [],
    storeId: 'store',
    labels: {},
    init: false,
    logDriver: engineLogDriver(1024 ** 2),
  });
}

const ran = { status: 'exited', exitCode: 0, message: null };

describe("the Slurm engine reading a job that ends between Slurm's state and its files", () => {
  it('lists it with the exit status its script wrote, not as ended by Slurm without one', async () => {
    const runtime = await endingWhileSqueueRuns('listed');
    const listed = await runtime.list();
    expect(listed.find(({ jobId }) => jobId === 'listed')).toMatchObject(ran);
  });

  it('inspects it with the exit status its script wrote', async () => {
    const runtime = await endingWhileSqueueRuns('inspected');
    expect(await runtime.inspect('inspected')).toMatchObject(ran);
  });
});
