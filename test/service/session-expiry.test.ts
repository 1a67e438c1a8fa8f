import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, signIn } from '../support/console-session';
import { startService, type TestService } from '../support/service';

/**
 * Sessions' idle and absolute ends in the real service. Its clock cannot be moved from here, so
 * time passes for a session by moving every time it holds back (what a clock moved forward by
 * as much would do to it), in the SQLite file the running service uses.
 */
const MINUTE = 60_000;
const PASSWORD = 'correct horse battery';
let service: TestService;
const onSqlite = (process.env.JOBDECK_TEST_STORE ?? 'sqlite') === 'sqlite';

beforeAll(async () => {
  service = await startService(
    { auth: { session_idle_minutes: 1, session_max_hours: 1 } },
    undefined,
    { withConsole: true },
  );
  await addUser(service, 'alice@example.test', PASSWORD, { project: 't', role: 'viewer' });
}, 60_000);
afterAll(() => service.stop());

/** As if `ms` passed for alice's sessions. */
function timePasses(ms: number) {
  const db = new SqliteDatabase(join(service.dataDir, 'jobdeck.sqlite'));
  try {
    db.prepare(
      `UPDATE sessions SET created_at = created_at - ?, last_seen_at = last_seen_at - ?,
         expires_at = expires_at - ? WHERE identity = 'alice@example.test'`,
    ).run(ms, ms, ms);
  } finally {
    db.close();
  }
}

async function signedIn() {
  const result = await signIn(service.baseUrl, 'alice@example.test', PASSWORD);
  if (!('cookie' in result)) throw new Error(`sign-in refused: ${result.message}`);
  return result.cookie;
}

const whoami = async (cookie: string) => {
  const response = await fetch(`${service.baseUrl}/v1/client/whoami`, { headers: { cookie } });
  return { status: response.status, body: (await response.json()) as { message?: string } };
};

describe.skipIf(!onSqlite)('a console session of the real service', () => {
  it('ends once unused for session_idle_minutes', async () => {
    const cookie = await signedIn();
    expect((await whoami(cookie)).status).toBe(200);
    timePasses(MINUTE);
    const ended = await whoami(cookie);
    expect(ended.status).toBe(401);
    expect(ended.body.message).toBe('session: ended or unknown; sign in again');
  });

  it('is kept by use past the idle time, but ends at session_max_hours however recently used', async () => {
    const cookie = await signedIn();
    // Used every 50 s, under the idle minute, for 59 min 10 s: 71 uses, each one keeping it.
    const statuses: number[] = [];
    for (let use = 1; use <= 71; use++) {
      timePasses(50_000);
      statuses.push((await whoami(cookie)).status);
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
    timePasses(50_000);
    const ended = await whoami(cookie);
    expect(ended.status, 'an hour after sign-in, used 50 s before').toBe(401);
    expect(ended.body.message).toBe('session: ended or unknown; sign in again');
  });
});
