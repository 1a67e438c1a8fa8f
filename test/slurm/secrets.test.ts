import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submit, waitForState } from '../support/jobs';
import { expectPlainValueKept, expectSecretOnlyInJob } from '../support/secret-probe';
import type { TestService } from '../support/service';
import { SLURM_WORK_DIR, slurm } from '../support/slurm';
import { filesHolding, leftInWorkDir, slurmJobsOf, startSlurmService } from './slurm';

// Where a node keeps what Slurm knows of its jobs (scripts/slurm-up.sh): the controller's state
// and the node's spool (each job's script and environment), the logs, and Jobdeck's work directory.
const NODE_DIRS = ['/var/lib/jobdeck-slurm', '/run/jobdeck-slurm'];

let service: TestService;
beforeAll(async () => {
  service = await startSlurmService({ log_level: 'trace' });
});
afterAll(() => service?.stop());

/** What the node shows of a running job: every command line, and everything Slurm says of it. */
function nodeViews(jobId: string): string {
  const [slurmJob = ''] = slurmJobsOf(jobId).map((job) => job.split(' ')[0]!);
  return [
    execFileSync('ps', ['-eww', '-o', 'args']).toString(),
    slurm('scontrol', 'show', 'job', '-dd', slurmJob),
    slurm('squeue', '--noheader', '--states=all', '--format=%all'),
  ].join('\n');
}

/** A job with `secret` as a sensitive value, seen while it runs, then once it ended. */
async function runWithSecret(secret: string, marker: string) {
  const sha256 = createHash('sha256').update(secret).digest('hex');
  const id = await submit(service, {
    job_definition: 't::sh:1',
    container_cmd_parameter: {
      // The marker is in the command, which is no secret: the contrast that the checks can fail.
      script: `echo ${marker}; sleep 3; test "$(printf %s "$TOKEN" | sha256sum | cut -d' ' -f1)" = ${sha256}`,
    },
    container_env: { TOKEN: { value: secret, sensitive: true } },
  });
  await waitForState(service, id, 'running');
  const whileRunning = {
    views: nodeViews(id),
    files: (text: string) => filesHolding(NODE_DIRS, text),
  };
  return { id, whileRunning };
}

describe('a sensitive env value on Slurm', () => {
  it('reaches the container and nothing on the node: no command line, no word of Slurm, no file', async () => {
    const secret = 'slurm-hunter2-7d1f0c3a-only-in-the-container';
    const marker = 'slurm-marker-5b9e-in-the-command';
    const { id, whileRunning } = await runWithSecret(secret, marker);
    expect(whileRunning.views).not.toContain(secret);
    expect(whileRunning.files(secret)).toEqual([]);
    // The contrast: the command (no secret) is in the batch script, Jobdeck's and Slurm's copy.
    expect(whileRunning.files(marker).length).toBeGreaterThanOrEqual(2);
    expect(whileRunning.views).toContain(`jobdeck.`); // Slurm's words about its jobs were read
    expect((await waitForState(service, id, ['completed', 'failed'])).state).toBe('completed');
    await expect.poll(() => leftInWorkDir(id), { timeout: 30_000 }).toBe('');
    expect(filesHolding(NODE_DIRS, secret)).toEqual([]);
    expect(filesHolding([SLURM_WORK_DIR], marker)).toEqual([]);
  });

  it('reaches the job and nothing of the service: no response, log line or store page', async () => {
    await expectSecretOnlyInJob(service, 'slurm-hunter2-4e1c77d0-only-in-the-task');
  });

  it('is kept when not sensitive, for contrast: the checks above can fail', async () => {
    await expectPlainValueKept(service, 'slurm-plain-value-9c2e');
  });
});
