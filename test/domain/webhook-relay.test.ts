import { afterEach, describe, expect, it, vi } from 'vitest';
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
    const reads = vi.spyOn(domain.store, 'changeSeqsAfter');
    await completeJob(domain);
    await completeJob(domain);
    expect(reads).not.toHaveBeenCalled();

    const { webhook } = await domain.system.webhooks!.create('t', 'key:test', HOOK);
    const fired = await completeJob(domain);
    // The first read waits out the grace for commits under way below the feed's start.
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
