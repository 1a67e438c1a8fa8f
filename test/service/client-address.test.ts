import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditPage } from '../../contract';
import { addUser } from '../support/console-session';
import { startService, type TestService } from '../support/service';

/**
 * Whose address the failure limit counts and the audit trail records, as clients on distinct
 * loopback addresses (127.0.0.x, one machine) reach the API, the console, or both through a proxy.
 */
let service: TestService;
const EMAIL = 'alice@example.test';
const PASSWORD = 'correct horse battery';
const FAILURES_PER_MINUTE = 3;
const PROXY = '127.0.0.7';

beforeAll(async () => {
  service = await startService(
    {
      auth_failures_per_minute: FAILURES_PER_MINUTE,
      // The per-e-mail lock must not be what refuses: only the per-address limit is tested here.
      auth: { sign_in_failures: 100 },
      // As docs/deploy.md sets it up, nginx on loopback: the console server's own connections
      // to the API come from a trusted address too, and must still carry only what it vouches for.
      trusted_proxies: ['127.0.0.1', PROXY],
    },
    undefined,
    { withConsole: true },
  );
  await addUser(service, EMAIL, PASSWORD, { project: 't', role: 'viewer' });
}, 60_000);
afterAll(() => service.stop());

interface Answer {
  status: number;
  text: string;
}

/** A sign-in from a client at `from` (node:http: fetch cannot choose its local address). */
function signInFrom(
  via: 'api' | 'console',
  from: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const url = new URL('/v1/auth/sign-in', via === 'api' ? service.baseUrl : service.consoleUrl());
  return new Promise((done, fail) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => done({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on('error', fail);
    request.end(JSON.stringify({ email: EMAIL, password }));
  });
}

const signInsSoFar = async () => {
  const answer = await service.request(
    'GET',
    `/v1/client/audit?action=user.sign_in&target=${encodeURIComponent(EMAIL)}&limit=200`,
  );
  expect(answer.status, answer.text).toBe(200);
  return (answer.body.data as AuditPage).items;
};

/** The address the audit trail records for a sign-in (it writes its events a moment later). */
async function auditedAddressOf(signIn: () => Promise<Answer>): Promise<string> {
  const before = (await signInsSoFar()).length;
  const answer = await signIn();
  expect(answer.status, answer.text).toBe(200);
  let items = await signInsSoFar();
  await vi.waitUntil(async () => (items = await signInsSoFar()).length > before, {
    timeout: 10_000,
  });
  return items[0]!.address!;
}

async function failUntilRefused(signIn: () => Promise<Answer>) {
  for (let i = 0; i < FAILURES_PER_MINUTE; i++) expect((await signIn()).status).toBe(401);
  const refused = await signIn();
  expect(refused.status).toBe(429);
  expect(JSON.parse(refused.text).message).toMatch(/^sign-in: more than 3 failed attempts/);
}

describe('through the console server', () => {
  it("counts each browser's failed sign-ins apart, not every console user's together", async () => {
    await failUntilRefused(() => signInFrom('console', '127.0.0.2', 'wrong password!'));
    expect((await signInFrom('console', '127.0.0.3', 'wrong password!')).status).toBe(401);
    expect((await signInFrom('console', '127.0.0.3', PASSWORD)).status).toBe(200);
  });

  it("records the browser's address in the audit trail, not the console server's", async () => {
    expect(await auditedAddressOf(() => signInFrom('console', '127.0.0.4', PASSWORD))).toBe(
      '127.0.0.4',
    );
  });

  it('believes no address the browser claims, nor a forged console proof', async () => {
    const claims = {
      'x-forwarded-for': '198.51.100.5',
      'x-jobdeck-console-proof': 'forged',
      'x-jobdeck-console-client': '198.51.100.5',
    };
    expect(await auditedAddressOf(() => signInFrom('console', '127.0.0.5', PASSWORD, claims))).toBe(
      '127.0.0.5',
    );
  });

  it("passes on the browser's address from a trusted proxy in front of the console", async () => {
    const viaProxy = { 'x-forwarded-for': '203.0.113.10' };
    expect(await auditedAddressOf(() => signInFrom('console', PROXY, PASSWORD, viaProxy))).toBe(
      '203.0.113.10',
    );
  });
});

describe('straight to the API', () => {
  it("ignores the console's headers without its proof, and X-Forwarded-For from a client", async () => {
    const forged = (n: number) => ({
      'x-jobdeck-console-proof': 'a'.repeat(43),
      'x-jobdeck-console-client': `198.51.100.${n}`,
      'x-forwarded-for': `198.51.100.${n}`,
    });
    expect(await auditedAddressOf(() => signInFrom('api', '127.0.0.6', PASSWORD, forged(6)))).toBe(
      '127.0.0.6',
    );
    // Each guess claims another address: all still count against the one it came from.
    let n = 10;
    await failUntilRefused(() => signInFrom('api', '127.0.0.6', 'wrong password!', forged(n++)));
  });

  it("honours a trusted proxy's X-Forwarded-For: the first address from the right it does not trust", async () => {
    const from = (xff: string) => () =>
      signInFrom('api', PROXY, PASSWORD, { 'x-forwarded-for': xff });
    // What the client itself put first is not believed; what the proxy appended is.
    expect(await auditedAddressOf(from('192.0.2.1, 203.0.113.7'))).toBe('203.0.113.7');
    expect(await auditedAddressOf(from(`203.0.113.8, ${PROXY}`))).toBe('203.0.113.8');
  });

  it("ignores an untrusted client's X-Forwarded-For", async () => {
    const untrusted = () =>
      signInFrom('api', '127.0.0.8', PASSWORD, { 'x-forwarded-for': '203.0.113.9' });
    expect(await auditedAddressOf(untrusted)).toBe('127.0.0.8');
  });

  it("counts a trusted proxy's clients apart", async () => {
    const client = (address: string) => () =>
      signInFrom('api', PROXY, 'wrong password!', { 'x-forwarded-for': address });
    await failUntilRefused(client('203.0.113.20'));
    expect((await client('203.0.113.21')()).status).toBe(401);
  });
});
