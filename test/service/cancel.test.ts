import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import type { ArrayAnswer, BulkAction } from '../../contract';
import { detail, shScript, submit, waitForState } from '../support/jobs';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const cancel = (id: string) => service.request('POST', `/v1/client/job/${id}/cancel`);

// Stopping a running job, and a waiting one, on each engine: test/support/engine-cases.ts; the
// spec's answers of Cancel Job: test/support/spec-cases.ts.
describe('Cancel Job', () => {
  describe('idempotent for every kind of job', () => {
    // Every job of this part carries the label, for the bulk cancel at its end.
    const labels = { case: 'idempotent' };
    const submitLabelled = (payload: Record<string, unknown>) =>
      submit(service, { ...payload, labels });
    const cancelTwice = async (id: string) => [
      (await cancel(id)).status,
      (await cancel(id)).status,
    ];
    const parents: string[] = [];

    it('an array’s parent: 202 on every cancel, waiting, running, cancelling and cancelled', async () => {
      const waiting = await submitLabelled({
        job_definition: 't::echo:1',
        schedule_at: new Date(Date.now() + 3_600_000).toISOString(),
        array: { size: 2 },
      });
      expect((await detail(service, waiting)).state).toBe('pending');
      const running = await submitLabelled({ job_definition: 't::sleep:1', array: { size: 2 } });
      // Its children ignore SIGTERM: the parent is cancelling for their grace second.
      const stubborn = await submitLabelled({
        job_definition: 't::stubborn:1',
        array: { size: 2 },
      });
      parents.push(waiting, running, stubborn);
      await waitForState(service, running, 'running');
      await waitForState(service, stubborn, 'running');

      expect(await cancelTwice(waiting)).toEqual([202, 202]);
      expect(await cancelTwice(running)).toEqual([202, 202]);
      expect((await cancel(stubborn)).status).toBe(202);
      expect((await detail(service, stubborn)).state).toBe('cancelling');
      expect((await cancel(stubborn)).status).toBe(202);
      for (const id of parents) {
        await waitForState(service, id, 'cancelled');
        expect(await cancelTwice(id)).toEqual([202, 202]);
        expect((await detail(service, id)).state).toBe('cancelled');
      }
    });

    it('a child, a job between attempts and a job waiting for another: 202 twice, cancelled once', async () => {
      const array = await submitLabelled({ job_definition: 't::sleep:1', array: { size: 2 } });
      await waitForState(service, array, 'running');
      const items = (
        (await service.request('GET', `/v1/client/job/${array}/array`)).body.data as ArrayAnswer
      ).items;
      const child = items[0]!.id;
      await waitForState(service, child, 'running');
      expect(await cancelTwice(child)).toEqual([202, 202]);
      await waitForState(service, child, 'cancelled');
      expect((await cancel(child)).status).toBe(202);
      expect((await detail(service, array)).state).toBe('running'); // the rest go on

      const retried = await submitLabelled({
        ...shScript('exit 3'),
        retry: { attempts: 3, backoff: { initial_seconds: 60 } },
      });
      const between = await waitForState(service, retried, 'runnable', 30_000);
      expect(between.state).toBe('runnable');
      await until(
        async () =>
          (await detail(service, retried)).system_note?.startsWith('attempt 2 of 3') ?? false,
      );
      expect(await cancelTwice(retried)).toEqual([202, 202]);
      expect((await detail(service, retried)).state).toBe('cancelled');

      const blocker = await submitLabelled({ job_definition: 't::sleep:1' });
      const dependent = await submitLabelled({
        job_definition: 't::echo:1',
        depends_on: [{ job_id: blocker }],
      });
      expect((await detail(service, dependent)).state).toBe('pending');
      expect(await cancelTwice(dependent)).toEqual([202, 202]);
      expect((await detail(service, dependent)).state).toBe('cancelled');
    });

    it('a bulk cancel counts the parents already cancelled as accepted, as it does any cancelled job', async () => {
      const started = await service.request('POST', '/v1/client/bulk-actions', {
        action: 'cancel',
        filter: { label: ['case=idempotent'] },
      });
      expect(started.status).toBe(202);
      const id = (started.body.data as BulkAction).id;
      let action: BulkAction | undefined;
      await until(async () => {
        action = (await service.request('GET', `/v1/client/bulk-actions/${id}`)).body
          .data as BulkAction;
        return action.state !== 'running';
      });
      expect(action).toMatchObject({ state: 'done', refused: 0 });
      expect(action!.accepted).toBe(action!.matched);
      const rows = (await service.request('GET', `/v1/client/bulk-actions/${id}/results`)).text
        .trimEnd()
        .split('\r\n');
      for (const parent of parents) {
        expect(rows.find((row) => row.startsWith(parent))).toMatch(/,cancelled,accepted,$/);
      }
    });
  });
});

async function until(done: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
