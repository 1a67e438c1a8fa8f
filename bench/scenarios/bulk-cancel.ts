import type { BulkAction, BulkDryRun } from '../../contract';
import { submit } from '../../test/support/jobs';
import type { TestService } from '../../test/support/service';
import { pool, round, sleep, summary } from '../stats';
import { ordinarySubmits } from './arrays';

/**
 * Cancelling every one of `size` labelled jobs waiting in the paused queue through one bulk
 * action: its dry run, how long the service takes to cancel them all, and Job Submit's latency
 * (4 at a time) meanwhile, beside the same with nothing else going on.
 */
export async function bulkCancel(service: TestService, size: number) {
  const batch = `bench-${Date.now().toString(36)}`;
  await pool(Array.from({ length: size }), 16, () =>
    submit(service, { job_definition: 'b::true:1', job_queue: 'b::paused', labels: { batch } }),
  );
  let baselineLeft = 400;
  const alone = await ordinarySubmits(service, () => baselineLeft-- > 0, 4);

  const request = { action: 'cancel', filter: { label: [`batch=${batch}`] } };
  const dryBegin = performance.now();
  const dry = await service.request('POST', '/v1/client/bulk-actions', {
    ...request,
    dry_run: true,
  });
  const dryRunMs = performance.now() - dryBegin;
  if ((dry.body.data as BulkDryRun).matched !== size) throw new Error(`dry run: ${dry.text}`);

  const begin = performance.now();
  const started = await service.request('POST', '/v1/client/bulk-actions', request);
  const { id } = started.body.data as BulkAction;
  let action = started.body.data as BulkAction;
  const beside = ordinarySubmits(service, () => action.state === 'running', 4);
  while (action.state === 'running') {
    await sleep(100);
    action = (await service.request('GET', `/v1/client/bulk-actions/${id}`)).body
      .data as BulkAction;
  }
  const doneMs = performance.now() - begin;
  const during = await beside;
  if (action.accepted !== size) throw new Error(`bulk cancel: ${JSON.stringify(action)}`);
  // The paused queue is left as it was found: nothing of this step waits in it.
  await pool([...alone.ids, ...during.ids], 16, (job) =>
    service.request('POST', `/v1/client/job/${job}/cancel`),
  );
  return {
    size,
    dryRunMs: round(dryRunMs, 0),
    doneMs: round(doneMs, 0),
    jobsPerSecond: round(size / (doneMs / 1000), 0),
    submitAloneMs: summary(alone.latencies),
    submitDuringMs: summary(during.latencies),
  };
}
