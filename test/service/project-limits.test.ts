import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_LIMITS, VIEW_LIMITS, WEBHOOK_LIMITS, type ApiKey } from '../../contract';
import { sharedStoreSettings } from '../support/postgres';
import { startService, type TestService } from '../support/service';

const onPostgres = process.env.JOBDECK_TEST_STORE === 'postgres';
/** Past each limit by this many: every create fired at once. */
const OVER = 15;

/**
 * A project's webhooks, views and keys stay within their limits however many creates arrive at
 * once: on SQLite at one service, on PostgreSQL at two instances of one database.
 */
describe('project limits under concurrent creates', () => {
  let instances: TestService[];

  beforeAll(async () => {
    if (!onPostgres) {
      instances = [await startService()];
      return;
    }
    const shared = await sharedStoreSettings();
    const first = await startService(shared);
    instances = [first, await startService(shared)];
  });
  afterAll(async () => {
    for (const instance of instances ?? []) await instance.stop();
  });

  /** Fires them all at once, alternating instances (each with its own key); the statuses. */
  async function race(count: number, send: (instance: TestService, i: number) => Promise<number>) {
    const statuses = await Promise.all(
      Array.from({ length: count }, (_, i) => send(instances[i % instances.length]!, i)),
    );
    // Any other answer is named, so a failure says what came back instead.
    const others = statuses.filter((s) => ![200, 201, 409].includes(s));
    return {
      created: statuses.filter((s) => s === 201 || s === 200).length,
      refused: statuses.filter((s) => s === 409).length,
      ...(others.length > 0 && { others }),
    };
  }

  it('hold the webhooks limit', async () => {
    const count = WEBHOOK_LIMITS.perProject + OVER;
    const answers = await race(count, async (instance, i) => {
      const body = { url: `https://hooks.example.com/${i}`, states: ['failed'] };
      return (await instance.request('POST', '/v1/client/webhooks', body)).status;
    });
    expect(answers).toEqual({ created: WEBHOOK_LIMITS.perProject, refused: OVER });
    const listed = await instances[0]!.request('GET', '/v1/client/webhooks');
    expect((listed.body.data as { items: unknown[] }).items).toHaveLength(
      WEBHOOK_LIMITS.perProject,
    );
  });

  it('hold the views limit', async () => {
    const count = VIEW_LIMITS.perProject + OVER;
    const answers = await race(count, async (instance, i) => {
      const body = { search: 'state=failed' };
      return (await instance.request('PUT', `/v1/client/views/v${i}`, body)).status;
    });
    expect(answers).toEqual({ created: VIEW_LIMITS.perProject, refused: OVER });
  });

  it('hold the active keys limit', async () => {
    // The console keys each instance made at its first start count already.
    const before = await instances[0]!.request('GET', '/v1/client/keys');
    const existing = (before.body.data as { items: ApiKey[] }).items.length;
    const room = KEY_LIMITS.activePerProject - existing;
    const answers = await race(room + OVER, async (instance) => {
      const body = { label: 'racer', role: 'viewer' };
      return (await instance.request('POST', '/v1/client/keys', body)).status;
    });
    expect(answers).toEqual({ created: room, refused: OVER });
    const after = await instances[0]!.request('GET', '/v1/client/keys');
    expect((after.body.data as { items: ApiKey[] }).items).toHaveLength(
      KEY_LIMITS.activePerProject,
    );
  });
});
