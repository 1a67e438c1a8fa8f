import { describe, expect, it } from 'vitest';
import { describeEngineCases } from '../support/engine-cases';
import { detail, submit, waitForState } from '../support/jobs';
import { slurm } from '../support/slurm';
import { SLURM, slurmJobsOf, slurmServiceForFile } from './slurm';

const context = slurmServiceForFile();

// The lifecycle, cancel and recovery cases every engine runs (test/support/engine-cases.ts), on
// this file's service; then what only Slurm does.
describeEngineCases(SLURM, context);

describe('a job on Slurm', () => {
  it('says in words why Slurm keeps a job pending, and cancels it before it starts', async () => {
    const { service } = context;
    // The first must find the node's memory free: the jobs of the cases above have ended.
    await expect
      .poll(() => slurm('squeue', '--noheader', '--format=%i'), { timeout: 60_000 })
      .toBe('');
    const submitted = [
      await submit(service, { job_definition: 't::whole:1', job_queue: 't::wide' }),
      await submit(service, { job_definition: 't::whole:1', job_queue: 't::wide' }),
    ];
    // Either may be the one Slurm starts: the other waits for its memory.
    let running: string | undefined;
    await expect
      .poll(
        async () => {
          const states = await Promise.all(
            submitted.map(async (id) => (await detail(service, id)).state),
          );
          running = submitted[states.indexOf('running')];
          return running !== undefined;
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    const first = running!;
    const second = submitted.find((id) => id !== first)!;
    await expect
      .poll(async () => (await detail(service, second)).system_note, { timeout: 30_000 })
      .toBe(
        'waiting for the container engine: waiting for a node with 1 CPUs and 5G of memory free (other jobs hold them)',
      );
    expect((await detail(service, second)).state).toBe('starting');
    await service.request('POST', `/v1/client/job/${second}/cancel`);
    const cancelled = await waitForState(service, second, 'cancelled');
    expect(cancelled.system_note).toBe('cancelled on request before the container started');
    expect(slurmJobsOf(second).map((job) => job.split(' ')[1])).toEqual(['CANCELLED']);
    await service.request('POST', `/v1/client/job/${first}/cancel`);
    await waitForState(service, first, 'cancelled');
  });
});
