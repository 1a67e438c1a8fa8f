import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { detail, logsOf, statesOf, submit, waitForState } from '../support/jobs';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const containerOf = (jobId: string) =>
  execFileSync('docker', ['ps', '-aq', '--filter', `label=jobdeck.job=${jobId}`])
    .toString()
    .trim();

describe('restart recovery', () => {
  it('adopts a running container, records one that ended meanwhile, errors a vanished one', async () => {
    const adopt = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd_parameter: { script: 'sleep 12; echo survived' },
    });
    const endsWhileDown = await submit(service, {
      job_definition: 't::sh:1',
      // Long enough to be seen running on a loaded machine (CI once saw it fail within 5 s of its
      // submit); the test then waits for its container to exit rather than for a fixed time.
      container_cmd_parameter: { script: 'sleep 6; exit 4' },
    });
    const vanishes = await submit(service, { job_definition: 't::sleep:1' });
    const waiting = await submit(service, {
      job_definition: 't::echo:1',
      schedule_at: Date.now() / 1000 + 10, // due after the restart
    });
    for (const id of [adopt, endsWhileDown, vanishes]) await waitForState(service, id, 'running');

    await service.stop('SIGKILL'); // no chance to clean up
    const vanished = containerOf(vanishes);
    expect(vanished).not.toBe('');
    execFileSync('docker', ['rm', '-f', vanished]);
    execFileSync('docker', ['wait', containerOf(endsWhileDown)]); // it exits meanwhile
    await service.restart();

    const failed = await waitForState(service, endsWhileDown, 'failed');
    expect(failed.system_note).toBe('exited with code 4');
    const lost = await waitForState(service, vanishes, 'error');
    expect(lost.system_note).toBe(
      'the Jobdeck instance running it stopped, and its container is gone, so its outcome is unknown; submit it again',
    );
    await waitForState(service, adopt, 'completed');
    expect(await logsOf(service, adopt)).toBe('survived\n');
    // Adopted, not started twice: one start in its history.
    expect((await statesOf(service, adopt)).filter((s) => s === 'starting')).toHaveLength(1);
    await waitForState(service, waiting, 'completed');
    // Removed once settled: the removal follows the final state (after the output is kept).
    for (const id of [adopt, endsWhileDown]) {
      await expect.poll(() => containerOf(id), { timeout: 10_000 }).toBe('');
    }
  });

  it('finishes a cancel that was under way when the service died', async () => {
    const id = await submit(service, { job_definition: 't::stubborn:1' });
    await waitForState(service, id, 'running');
    await service.request('POST', `/v1/client/job/${id}/cancel`);
    expect((await detail(service, id)).state).toBe('cancelling');
    await service.stop('SIGKILL');
    await service.restart();
    const job = await waitForState(service, id, 'cancelled');
    expect(job.system_note).toMatch(/^cancelled on request; the container exited with code \d+$/);
  });

  it('keeps every job across a restart', async () => {
    const before = await service.request('GET', '/v1/client/jobs?limit=200');
    await service.restart();
    const after = await service.request('GET', '/v1/client/jobs?limit=200');
    const ids = (r: typeof before) =>
      (r.body.data as { items: { id: string }[] }).items.map((j) => j.id);
    expect(ids(after)).toEqual(ids(before));
  });
});
