import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FollowedEvents } from '../support/events';
import { submit, waitForState } from '../support/jobs';
import { sharedStoreSettings } from '../support/postgres';
import { startService, type TestService } from '../support/service';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * A transaction that takes its change's seq, then commits 30 s later while other jobs move and
 * commit: every change still reaches the event stream and the webhook, once, in seq order. (The
 * feed's former gap rule skipped a seq missing for 5 s: this change was lost.)
 */
const onPostgres = process.env.JOBDECK_TEST_STORE === 'postgres';
const HOLD_MS = 30_000;
const LIFECYCLE = ['submitted', 'runnable', 'starting', 'running', 'completed'] as const;

let service: TestService;
let url: string;
let receiver: WebhookReceiver;
beforeAll(async () => {
  if (!onPostgres) return;
  const shared = await sharedStoreSettings();
  url = shared.store.url;
  service = await startService({
    ...shared,
    webhooks: { allowed_hosts: ['127.0.0.1'], timeout_seconds: 2 },
  });
  receiver = await new WebhookReceiver().listen();
});
afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!onPostgres)('a change committed 30 s after it took its seq', () => {
  it('reaches the stream and the webhook once, in seq order, after it commits', async () => {
    const created = await service.request('POST', '/v1/client/webhooks', {
      url: receiver.url,
      states: [...LIFECYCLE, 'cancelled'],
    });
    expect(created.status, created.text).toBe(201);
    const stream = new FollowedEvents(service);
    const late = new pg.Client({ connectionString: url });
    await late.connect();
    try {
      await stream.open();
      // A job nothing dispatches (its queue is paused), moved by a transaction of another
      // session that stays open: a move of the service's own, as its store writes one.
      const held = await submit(service, { job_definition: 't::echo:1', job_queue: 't::paused' });
      await waitForState(service, held, 'runnable');
      const at = Date.now();
      await late.query('BEGIN');
      const moved = await late.query(
        `UPDATE jobs SET state = 'cancelled', updated_at = $2, finished_at = $2
         WHERE id = $1 AND state = 'runnable'`,
        [held, at],
      );
      expect(moved.rowCount).toBe(1);
      await late.query(
        `INSERT INTO job_transitions (job_id, from_state, to_state, at, note)
         VALUES ($1, 'runnable', 'cancelled', $2, 'cancelled by a late commit')`,
        [held, at],
      );
      const heldSince = Date.now();

      // Meanwhile other jobs run their whole lives, each move committed after the held seq.
      const others = await Promise.all(
        [1, 2, 3, 4].map(() => submit(service, { job_definition: 't::echo:1' })),
      );
      for (const id of others) await waitForState(service, id, 'completed');
      await sleep(HOLD_MS - (Date.now() - heldSince));
      await late.query('COMMIT');

      await stream.until(() => stream.statesOf(held).includes('cancelled'), 20_000);
      await stream.expectLifecycles(others, LIFECYCLE);
      expect(stream.statesOf(held)).toEqual(['submitted', 'runnable', 'cancelled']);
      // In seq order: the held change before every change committed while it was held.
      const seqs = await late.query<{ job_id: string; to_state: string; seq: string }>(
        'SELECT job_id, to_state, seq FROM job_transitions',
      );
      const seqOf = new Map(seqs.rows.map((r) => [`${r.job_id} ${r.to_state}`, Number(r.seq)]));
      const delivered = stream.events.map((e) => seqOf.get(`${e.job.id} ${e.job.state}`)!);
      expect(delivered).toEqual([...delivered].sort((a, b) => a - b));

      await receiver.until(
        () =>
          receiver.about(held).some((r) => r.event.type === 'job.cancelled') &&
          others.every((id) => receiver.about(id).some((r) => r.event.type === 'job.completed')),
        'every change delivered',
        20_000,
      );
      // Once each: a delivery sent twice would carry the same webhook-id header.
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(ids.length);
      // Sent side by side, so received in any order.
      const typesOf = (id: string) =>
        receiver
          .about(id)
          .map((r) => r.event.type)
          .sort();
      expect(typesOf(held)).toEqual(['job.cancelled', 'job.runnable', 'job.submitted']);
      for (const id of others) {
        expect(typesOf(id)).toEqual(LIFECYCLE.map((state) => `job.${state}`).sort());
      }
    } finally {
      stream.close();
      await late.end();
    }
  }, 90_000);
});
