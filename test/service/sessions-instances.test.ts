import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, asSignedIn, signIn, type SignedIn } from '../support/console-session';
import { sharedStoreSettings } from '../support/postgres';
import { startService, type TestService } from '../support/service';

// Instances share a store only on PostgreSQL.
const onPostgres = process.env.JOBDECK_TEST_STORE === 'postgres';
const PASSWORD = 'a long enough password';

let a: TestService;
let b: TestService;
beforeAll(async () => {
  if (!onPostgres) return;
  const shared = await sharedStoreSettings();
  a = await startService(shared);
  b = await startService(shared);
  await addUser(a, 'ops@example.test', PASSWORD, { project: 't', role: 'operator' });
}, 90_000);
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

describe.skipIf(!onPostgres)('console sessions with two instances on one PostgreSQL store', () => {
  it('a session started at one instance acts at the other, and a sign-out at either ends it', async () => {
    const signedIn = (await signIn(a.baseUrl, 'ops@example.test', PASSWORD)) as SignedIn;
    expect(signedIn.cookie).toMatch(/^jobdeck_session=/);
    const atB = await asSignedIn(b.baseUrl, signedIn, 'POST', '/v1/client/job', {
      body: { job_definition: 't::echo:1', job_queue: 't::default' },
    });
    expect(atB.status).toBe(202);
    const out = await fetch(`${b.baseUrl}/v1/auth/sign-out`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: signedIn.cookie,
        'x-csrf-token': signedIn.csrf,
      },
      body: '{}',
    });
    expect(out.status).toBe(200);
    expect((await asSignedIn(a.baseUrl, signedIn, 'GET', '/v1/client/whoami')).status).toBe(401);
  });
});
