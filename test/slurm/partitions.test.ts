import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { submit, waitForState } from '../support/jobs';
import { CLI } from '../support/service';
import { SLURM_CONF, SLURM_WORK_DIR, slurm } from '../support/slurm';
import { slurmProjects, slurmServiceForFile } from './slurm';

const context = slurmServiceForFile();

/** The partition Slurm ran the job's Slurm job in. */
function partitionOf(jobId: string): string {
  const line = slurm('squeue', '--noheader', '--states=all', '--format=%P %j')
    .split('\n')
    .find((entry) => entry.includes(`.${jobId}.`));
  return line?.split(' ')[0] ?? '';
}

describe('queues on Slurm partitions', () => {
  it("submits a queue's jobs to the partition it names, the others to the cluster's default", async () => {
    const { service } = context;
    const express = await submit(service, { job_definition: 't::echo:1', job_queue: 't::express' });
    const plain = await submit(service, { job_definition: 't::echo:1' });
    for (const id of [express, plain]) await waitForState(service, id, 'completed');
    expect([partitionOf(express), partitionOf(plain)]).toEqual(['express', 'jobs']);
  });

  it('refuses to start on a partition the cluster lacks, naming the queue and the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobdeck-partition-'));
    const { t } = slurmProjects();
    const projects = { t: { ...t, queues: { ...t.queues, nowhere: { partition: 'nowhere' } } } };
    const file = join(dir, 'jobdeck.yaml');
    writeFileSync(
      file,
      stringify({
        port: 0,
        data_dir: dir,
        engine: { type: 'slurm', conf: SLURM_CONF, work_dir: SLURM_WORK_DIR },
        projects,
      }),
    );
    try {
      const failed = await promisify(execFile)(
        process.execPath,
        [...CLI, 'start', '--no-console', '--config', file],
        { timeout: 60_000 },
      ).then(
        () => null,
        (error: { stderr: string; code: number }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toBe(
        'jobdeck: projects.t.queues.nowhere.partition: the Slurm cluster has no partition "nowhere" for queue t::nowhere (it has jobs, express)\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
