import type { CreatedWebhook } from '../../contract';
import { startService, type TestService } from '../../test/support/service';
import { WebhookReceiver } from '../../test/support/webhook-receiver';
import { percentile, round, sleep } from '../stats';
import { QUICK_JOBS_SETTINGS, submitSteadily } from './steady-load';

export interface WebhookPlan {
  seconds: number;
  submitsPerSecond: number;
}

/** Every job's `job.completed` delivered, or the time is up. */
async function untilDelivered(receiver: WebhookReceiver, ids: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const waiting = new Set(ids);
  let read = 0;
  while (waiting.size > 0 && Date.now() < deadline) {
    for (; read < receiver.received.length; read += 1) {
      const { data } = receiver.received[read]!.event;
      if ('job' in data) waiting.delete(data.job.id);
    }
    await sleep(100);
  }
  return waiting.size;
}

async function load(service: TestService, plan: WebhookPlan) {
  return submitSteadily(service, { seconds: plan.seconds, perSecond: plan.submitsPerSecond });
}

/**
 * Issue 25's webhooks under load: steady submits on the simulated engine (jobs end in a fraction
 * of a second) with one webhook told of every completion, against a real receiver on loopback;
 * then the same load without the webhook, for Job Submit's latency beside it. Counts every
 * job's delivery (none lost, none twice) and times each from the change (the event's timestamp)
 * to its arrival. Receiver, load and service share the machine's two cores.
 */
export async function webhookLoad(plan: WebhookPlan) {
  const receiver = await new WebhookReceiver().listen();
  const arrivals = new Map<string, number>();
  receiver.answer = ({ event }) => {
    if ('job' in event.data)
      arrivals.set(event.data.job.id, Date.now() - Date.parse(event.timestamp));
    return { status: 204 };
  };
  const withHook = await startService({
    ...QUICK_JOBS_SETTINGS,
    webhooks: { allowed_hosts: ['127.0.0.1'] },
  });
  let hooked;
  try {
    const created = await withHook.request('POST', '/v1/client/webhooks', {
      url: receiver.url,
      states: ['completed'],
    });
    if (created.status !== 201) throw new Error(`webhook not created: ${created.text}`);
    const hook = created.body.data as CreatedWebhook;
    const began = Date.now();
    hooked = await load(withHook, plan);
    const missing = await untilDelivered(receiver, hooked.ids, 60_000);
    const delays = [...arrivals.values()];
    const deliveries = hooked.ids.length - missing;
    hooked = {
      ...hooked,
      ids: undefined,
      webhookId: hook.id,
      delivered: deliveries,
      missing,
      duplicates: receiver.received.length - arrivals.size,
      deliveriesPerSecond: round(deliveries / ((Date.now() - began) / 1000), 0),
      delayMs: { p50: round(percentile(delays, 50), 0), p99: round(percentile(delays, 99), 0) },
    };
  } finally {
    await withHook.stop();
    await receiver.close();
  }
  const without = await startService(QUICK_JOBS_SETTINGS);
  try {
    const control = await load(without, plan);
    return { ...plan, hooked, control: { ...control, ids: undefined } };
  } finally {
    await without.stop();
  }
}
