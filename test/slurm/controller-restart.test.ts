import { describe, expect, it } from 'vitest';
import { detail, logsOf, shScript, statesOf, submit, waitForState } from '../support/jobs';
import { startController, stopController } from '../support/slurm';
import { slurmServiceForFile } from './slurm';

const context = slurmServiceForFile();

describe('slurmctld restarted while jobs run', () => {
  it('keeps the running job, holds one submitted meanwhile until it is back: each completes once, with its output', async () => {
    const { service } = context;
    const running = await submit(service, shScript('sleep 8; echo outlived the controller'));
    await waitForState(service, running, 'running');
    await stopController();
    const meanwhile = await submit(service, shScript('echo after the restart'));
    await expect
      .poll(async () => (await detail(service, meanwhile)).system_note, { timeout: 30_000 })
      .toMatch(/^waiting for the container engine: unreachable since /);
    startController();
    await waitForState(service, running, 'completed');
    expect(await logsOf(service, running)).toBe('outlived the controller\n');
    await waitForState(service, meanwhile, 'completed');
    expect(await logsOf(service, meanwhile)).toBe('after the restart\n');
    for (const id of [running, meanwhile]) {
      expect(
        (await statesOf(service, id)).filter((s) => s === 'starting'),
        id,
      ).toHaveLength(1);
    }
    const byJob = await context.starts.byJob();
    expect([byJob.get(running), byJob.get(meanwhile)]).toEqual([1, 1]);
  });
});
