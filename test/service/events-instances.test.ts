import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FollowedEvents, openEventStream, untilText } from '../support/events';
import { submit, waitForState } from '../support/jobs';
import { sharedStoreSettings } from '../support/postgres';
import { startService, type TestService } from '../support/service';

// Instances share a store only on PostgreSQL.
const onPostgres = process.env.JOBDECK_TEST_STORE === 'postgres';
const LIFECYCLE = ['submitted', 'runnable', 'starting', 'running', 'completed'];

let a: TestService;
let b: TestService;
beforeAll(async () => {
  if (!onPostgres) return;
  const shared = await sharedStoreSettings();
  // One after the other: the first creates the schema, the other finds it done.
  a = await startService(shared);
  b = await startService(shared);
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

describe.skipIf(!onPostgres)('events with two instances on one PostgreSQL store', () => {
  it("tell one instance's stream the changes made by the other", async () => {
    const stream = new FollowedEvents(a);
    try {
      await stream.open();
      const script = 'sleep 1';
      const jobs = await Promise.all(
        [1, 2, 3, 4].map(() =>
          submit(b, { job_definition: 't::sh:1', container_cmd_parameter: { script } }),
        ),
      );
      for (const id of jobs) await waitForState(b, id, 'completed');
      await stream.expectLifecycles(jobs, LIFECYCLE);
    } finally {
      stream.close();
    }
  });

  it('resume on the other instance after the last event one of them sent', async () => {
    const first = new FollowedEvents(a);
    await first.open();
    const id = await submit(b, {
      job_definition: 't::sh:1',
      container_cmd_parameter: { script: 'sleep 2' },
    });
    await first.until(() => first.statesOf(id).includes('running'));
    first.close();
    const last = first.events.at(-1)!.id;
    await waitForState(a, id, 'completed');

    const resumed = await openEventStream(b, { 'last-event-id': last });
    const text = await untilText(resumed.text, /"state":"completed"/);
    resumed.close();
    // Exactly what came after: nothing the first instance had sent, the completion once.
    expect(text).not.toMatch(/"state":"(submitted|pending|runnable|starting|running)"/);
    expect(text).not.toContain('event: reset');
    expect(text.match(/"state":"completed"/g)).toHaveLength(1);
  });
});
