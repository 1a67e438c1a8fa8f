import { afterEach, describe, expect, it, vi } from 'vitest';
import { newJob } from '../store/new-job';
import { startDomain } from './harness';

let domain: Awaited<ReturnType<typeof startDomain>>;
afterEach(() => domain.close());

const HOOK = {
  url: 'http://receiver.test/hook',
  states: ['completed' as const],
  queues: [],
  labels: [],
  description: 'relay test',
};
/** The relay's backstop looks for webhooks created or deleted elsewhere this often. */
const BACKSTOP_MS = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function completeJob(d: typeof domain): Promise<string> {
  const id = await d.submit();
  await d.waitFor(id, 'running');
  d.engine.exit(id, 0);
  await d.waitFor(id, 'completed');
  return id;
}

async function sentFor(d: typeof domain, id: string, timeoutMs: number) {
  await vi.waitFor(() => expect(d.sent.some((s) => s.body.includes(id))).toBe(true), {
    timeout: timeoutMs,
    interval: 20,
  });
}

describe('the webhook relay follows the changes only while a webhook exists', () => {
  it('reads no change without a webhook; one created here is followed at once; deleted, no longer', async () => {
    domain = await startDomain();
    const reads = vi.spyOn(domain.store, 'changeHorizon');
    await completeJob(domain);
    await completeJob(domain);
    expect(reads).not.toHaveBeenCalled();

    const { webhook } = await domain.system.webhooks!.create('t', 'key:test', HOOK);
    const fired = await completeJob(domain);
    await sentFor(domain, fired, 3 * BACKSTOP_MS);
    expect(reads).toHaveBeenCalled();
    expect(domain.sent.filter((s) => s.body.includes(fired))).toHaveLength(1);

    await domain.system.webhooks!.remove('t', webhook.id);
    await sleep(BACKSTOP_MS + 500);
    reads.mockClear();
    await completeJob(domain);
    await sleep(500);
    expect(reads).not.toHaveBeenCalled();
  }, 60_000);

  it('a webhook another instance created is followed by the backstop, and misses no change', async () => {
    domain = await startDomain();
    const other = await domain.join('host-b');
    await other.webhooks!.create('t', 'key:test', HOOK);
    // The instance that created it goes: this one, told nothing, must find it by itself.
    await other.stop();
    const fired = await completeJob(domain);
    await sentFor(domain, fired, 4 * BACKSTOP_MS);
    expect(domain.sent.filter((s) => s.body.includes(fired))).toHaveLength(1);
  }, 60_000);
});

describe('the webhook relay after a long pause', () => {
  it('sends no change older than the replay bound: two instances count each one once, across pages', async () => {
    domain = await startDomain();
    const other = await domain.join('host-b');
    const { webhook } = await domain.system.webhooks!.create('t', 'key:test', {
      ...HOOK,
      states: ['failed'],
    });
    // Changes made two days ago as far as the store knows, in a queue nothing dispatches from:
    // more than one page of them.
    const twoDaysAgo = Date.now() - 2 * 86_400_000;
    const old: string[] = [];
    for (let i = 0; i < 1200; i++) {
      const job = newJob({ project: 't', queue: 't::nowhere', definition: 't::run:1' });
      await domain.store.insertJob(job, `fingerprint-${i}`);
      await domain.store.moveJob({
        id: job.id,
        from: 'submitted',
        to: 'failed',
        at: twoDaysAgo + i,
        note: null,
      });
      old.push(job.id);
    }
    const fresh = newJob({ project: 't', queue: 't::nowhere', definition: 't::run:1' });
    await domain.store.insertJob(fresh, 'fingerprint-fresh');
    await domain.store.moveJob({
      id: fresh.id,
      from: 'submitted',
      to: 'failed',
      at: Date.now(),
      note: null,
    });
    await sentFor(domain, fresh.id, 4 * BACKSTOP_MS);

    const log = await domain.system.webhooks!.deliveries('t', webhook.id);
    const skipped = log.filter((delivery) => delivery.eventType === 'webhook.skipped');
    const counted = skipped.map((delivery) =>
      Number(/^(\d+) events? from/.exec(delivery.lastError!)![1]),
    );
    expect(counted.reduce((sum, n) => sum + n, 0)).toBe(old.length);
    for (const delivery of skipped) {
      expect(delivery).toMatchObject({ state: 'failed', attempts: 0, jobId: null });
    }
    const sentIds = new Set(
      domain.sent.map((s) => (JSON.parse(s.body) as { data: { job: { id: string } } }).data.job.id),
    );
    expect(old.filter((id) => sentIds.has(id))).toEqual([]);
    await other.stop();
  }, 60_000);
});
