import type { Schedule } from '../../contract';
import type { TestService } from '../../test/support/service';
import { detail, transitions, waitForState } from '../../test/support/jobs';
import { BENCH_WAIT_MS } from '../jobdeck-client';
import { sleep, summary } from '../stats';

/**
 * How late a schedule's firings are: resumes the bench's every-second schedule for `seconds`,
 * then from each firing's time to its job stored (created_at) and to its job running.
 */
export async function scheduleLateness(service: TestService, seconds: number) {
  const path = '/v1/client/schedules/every-second';
  await service.request('POST', `${path}/resume`);
  await sleep(seconds * 1000);
  await service.request('POST', `${path}/pause`, { reason: 'bench step over' });
  const listed = await service.request('GET', '/v1/client/schedules');
  const schedule = (listed.body.data as { items: Schedule[] }).items.find(
    (s) => s.name === 'every-second',
  )!;
  const toStored: number[] = [];
  const toRunning: number[] = [];
  for (const firing of schedule.recent.filter((f) => f.job_id !== null)) {
    const id = firing.job_id!;
    await waitForState(service, id, ['completed'], BENCH_WAIT_MS, 20);
    const firedAt = Date.parse(firing.fire_at);
    toStored.push(Date.parse((await detail(service, id)).created_at) - firedAt);
    toRunning.push(
      Date.parse((await transitions(service, id)).find((t) => t.to === 'running')!.at) - firedAt,
    );
  }
  return {
    firings: toStored.length,
    fireToStoredMs: summary(toStored),
    fireToRunningMs: summary(toRunning),
  };
}
