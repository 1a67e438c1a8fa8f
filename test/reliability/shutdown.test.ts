import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobListItem } from '../../contract';
import { ContainerStarts, containersOf } from '../support/engine-events';
import { startService, type TestService } from '../support/service';
import { submit, waitForState } from '../support/jobs';
import { releaseHeldJob } from '../support/release-job';
import { recordFigure } from './figures';

let service: TestService;
const starts = new ContainerStarts();
beforeAll(async () => {
  await starts.started();
  service = await startService({ reconcile_interval_seconds: 1 });
});
afterAll(async () => {
  starts.stop();
  await service?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a graceful stop (SIGTERM)', () => {
  it('answers the requests under way, takes no new ones, leaves containers to be adopted, exits in time', async () => {
    const hold = 'while [ ! -e /tmp/release ]; do sleep 0.2; done; echo done';
    const running = await Promise.all(
      [0, 1, 2].map(() =>
        submit(service, { job_definition: 't::sh:1', container_cmd_parameter: { script: hold } }),
      ),
    );
    for (const id of running) await waitForState(service, id, 'running');

    // A burst of submits with the stop landing in the middle of it.
    const burst = Array.from({ length: 40 }, async (_, i) => {
      await sleep(i * 5);
      return service
        .request('POST', '/v1/client/job', {
          job_definition: 't::echo:1',
          job_queue: 't::default',
          name: `term-${i}`,
        })
        .then(
          (response) => ({ name: `term-${i}`, status: response.status, text: response.text }),
          () => ({ name: `term-${i}`, status: 0, text: undefined }), // refused: no longer listening
        );
    });
    await sleep(100);
    const stoppedAt = Date.now();
    await service.stop('SIGTERM');
    const exitMs = Date.now() - stoppedAt;
    const answers = await Promise.all(burst);

    // Accepted, refused at the door, or told in the envelope that the service is stopping.
    for (const answer of answers) {
      if (answer.status === 503) {
        expect(JSON.parse(answer.text!)).toEqual({
          ok: false,
          message: 'service: stopping for a restart; retry in a moment',
        });
      } else expect([0, 202]).toContain(answer.status);
    }
    const accepted = answers.filter((a) => a.status === 202).map((a) => a.name);
    expect(accepted.length).toBeGreaterThan(0);
    for (const id of running) expect(containersOf(id)).toHaveLength(1); // still there

    await service.restart();
    for (const id of running) {
      await releaseHeldJob(id);
      await waitForState(service, id, 'completed');
    }
    const listed = await service.request('GET', '/v1/client/jobs?limit=200');
    const byName = new Map(
      (listed.body.data as { items: JobListItem[] }).items.map((j) => [j.name, j.id]),
    );
    for (const name of accepted) await waitForState(service, byName.get(name)!, 'completed');
    const refused = answers.filter((a) => a.status !== 202).map((a) => a.name);
    for (const name of refused) expect(byName.has(name), name).toBe(false);
    const startsByJob = await starts.byJob();
    for (const id of [...running, ...accepted.map((n) => byName.get(n)!)]) {
      expect(startsByJob.get(id)).toBe(1);
    }

    recordFigure('SIGTERM → process exited', exitMs, 'ms');
    recordFigure(
      'SIGTERM during 40 submits',
      `${accepted.length} answered 202 and completed after restart, ${refused.length} refused (503 in the envelope or connection refused) and not stored; 3 running containers adopted`,
    );
  });
});
