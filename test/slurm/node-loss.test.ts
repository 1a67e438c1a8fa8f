import { describe, expect, it } from 'vitest';
import { logsOf, shScript, submit, waitForState } from '../support/jobs';
import { killNodeDaemon, startController } from '../support/slurm';
import { NODE, slurmServiceForFile } from './slurm';

const context = slurmServiceForFile();

describe('a node lost under a running job', () => {
  it('is an error naming the node (NODE_FAIL), never run again by Slurm; the node returns to service', async () => {
    const { service } = context;
    const id = await submit(service, shScript('sleep 60'));
    await waitForState(service, id, 'running');
    killNodeDaemon();
    // SlurmdTimeout (10 s, scripts/slurm-up.sh), then the controller's next ping.
    const lost = await waitForState(service, id, 'error', 60_000);
    expect(lost.system_note).toBe(
      `its node ${NODE} stopped answering Slurm (NODE_FAIL), so whether it ran to the end is unknown; submit it again`,
    );
    startController(); // slurmd again: it ends what is left of the job, and the node returns
    const next = await submit(service, shScript('echo the node is back'));
    await waitForState(service, next, 'completed', 60_000);
    expect(await logsOf(service, next)).toBe('the node is back\n');
    const byJob = await context.starts.byJob();
    expect(byJob.get(id)).toBe(1);
  });
});
