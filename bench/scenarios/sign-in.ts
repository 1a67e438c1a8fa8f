import { rmSync } from 'node:fs';
import autocannon from 'autocannon';
import { roleAllows, roleFor } from '../../contract';
import { documentedPath } from '../../server/http/route-roles';
import { addUser, signIn, type SignedIn } from '../../test/support/console-session';
import { freePort } from '../../test/support/free-port';
import { submit } from '../../test/support/jobs';
import { signInAtProvider } from '../../test/support/oidc-login';
import { startOidcProvider } from '../../test/support/oidc-provider';
import { startService, type TestService } from '../../test/support/service';
import { percentile, round } from '../stats';
import { QUICK_JOBS_SETTINGS } from './steady-load';

export interface SignInPlan {
  passwordSignIns: number;
  oidcWalks: number;
  detailSeconds: number;
}

const PASSWORD = 'a bench password, long enough';
const OPERATOR = 'operator@bench.test';
const OIDC_LOGIN = 'alice@example.test';

const timed = async (work: () => Promise<void>, count: number) => {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const begin = performance.now();
    await work();
    times.push(performance.now() - begin);
  }
  return { n: count, p50: round(percentile(times, 50), 0), p99: round(percentile(times, 99), 0) };
};

/** The browser's whole walk: start at the console, the provider's pages, the callback. */
async function oidcWalk(consoleUrl: string, redirectUri: string) {
  const start = await fetch(`${consoleUrl}/v1/auth/oidc/start`, { redirect: 'manual' });
  const state = start.headers.getSetCookie().find((c) => c.startsWith('jobdeck_oidc_state='));
  if (start.status !== 303 || !state) throw new Error(`oidc start: ${start.status}`);
  const callback = await signInAtProvider(start.headers.get('location')!, {
    login: OIDC_LOGIN,
    redirectUri,
  });
  const back = await fetch(callback, {
    redirect: 'manual',
    headers: { cookie: state.split(';')[0]!, 'sec-fetch-site': 'cross-site' },
  });
  const session = back.headers.getSetCookie().some((c) => c.startsWith('jobdeck_session='));
  if (back.status !== 303 || !session) {
    throw new Error(`oidc callback: ${back.status} to ${back.headers.get('location')}`);
  }
}

async function detailLoad(url: string, headers: Record<string, string>, seconds: number) {
  const result = await autocannon({ url, connections: 16, duration: seconds, headers });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

type Half = Awaited<ReturnType<typeof detailLoad>>;

/** Two halves as one figure: their rate over both, the higher p50 and p99 of the two. */
const together = ([a, b]: Half[]) => ({
  requestsPerSecond: round((a!.requests + b!.requests) / (a!.seconds + b!.seconds), 0),
  p50Ms: Math.max(a!.p50Ms, b!.p50Ms),
  p99Ms: Math.max(a!.p99Ms, b!.p99Ms),
  errors: a!.errors + b!.errors,
});

/**
 * The role check alone, in this process: what the service's onRequest hook does for Job Detail
 * (the route's path as the docs write it, its role, the comparison), a million times. Every key,
 * admin or not, goes through it, so the load below has no request without it to compare with.
 */
function roleCheckNs() {
  const count = 1_000_000;
  let allowed = 0;
  const begin = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) {
    const needed = roleFor('GET', documentedPath('/v1/client/job/:job_id'))!;
    if (roleAllows('viewer', needed)) allowed += 1;
  }
  const ns = Number(process.hrtime.bigint() - begin) / count;
  if (allowed !== count) throw new Error('the role check refused a viewer Job Detail');
  return round(ns, 0);
}

/**
 * Issue 24's sign-in on one service (SQLite, the simulated engine: no container runs) with its
 * console, whose port the OpenID Provider returns to: a password sign-in (scrypt), the whole
 * OpenID Connect walk against a real provider process on this machine, and Job Detail at 16
 * connections as an admin key, a viewer key and an operator's session cookie.
 */
export async function signInCosts(plan: SignInPlan) {
  const consolePort = await freePort();
  const consoleUrl = `http://127.0.0.1:${consolePort}`;
  const redirectUri = `${consoleUrl}/v1/auth/oidc/callback`;
  const provider = await startOidcProvider({ redirectUris: [redirectUri] });
  let service: TestService | undefined;
  try {
    service = await startService(
      {
        ...QUICK_JOBS_SETTINGS,
        auth: {
          public_url: consoleUrl,
          oidc: {
            issuer: provider.issuer,
            client_id: provider.clientId,
            allow_insecure_issuer: true,
            scopes: ['openid', 'email', 'profile', 'groups'],
            group_roles: { 'jobdeck-admins': [{ project: 'b', role: 'admin' }] },
          },
        },
      },
      undefined,
      {
        withConsole: true,
        consolePort,
        env: { JOBDECK_OIDC_CLIENT_SECRET: provider.clientSecret },
      },
    );
    const api = service.baseUrl;
    await addUser(service, OPERATOR, PASSWORD, { project: 'b', role: 'operator' });
    let operator: SignedIn | undefined;
    const passwordMs = await timed(async () => {
      const signedIn = await signIn(api, OPERATOR, PASSWORD);
      if (!('cookie' in signedIn)) throw new Error(`sign-in refused: ${signedIn.message}`);
      operator = signedIn;
    }, plan.passwordSignIns);
    // The provider's and the service's first requests (discovery, keys) are not the figure.
    await oidcWalk(consoleUrl, redirectUri);
    const oidcMs = await timed(() => oidcWalk(consoleUrl, redirectUri), plan.oidcWalks);

    const viewerKey = /jd_\S+/.exec(
      await service.cli('keys', 'create', '--project', 'b', '--role', 'viewer'),
    )![0];
    const id = await submit(service, { job_definition: 'b::true:1', job_queue: 'b::paused' });
    const url = `${api}/v1/client/job/${id}`;
    const credentials = {
      adminKey: { authorization: `Bearer ${service.key}` },
      viewerKey: { authorization: `Bearer ${viewerKey}` },
      operatorSession: { cookie: operator!.cookie },
    };
    for (const headers of Object.values(credentials)) {
      const check = await fetch(url, { headers });
      if (check.status !== 200)
        throw new Error(`Job Detail: ${check.status} ${await check.text()}`);
    }
    // Warm-up: the first seconds of load (JIT, caches) land on no figure.
    await detailLoad(url, credentials.adminKey, 2);
    // Each credential twice, half the time each, in the order A B C C B A: this VM's speed drifts
    // within a run, and the same order every time would hand the drift to one credential.
    const names = Object.keys(credentials) as (keyof typeof credentials)[];
    const halves = new Map<string, Half[]>(names.map((name) => [name, []]));
    for (const name of [...names, ...[...names].reverse()]) {
      halves.get(name)!.push(await detailLoad(url, credentials[name], plan.detailSeconds / 2));
    }
    const detail = Object.fromEntries(names.map((name) => [name, together(halves.get(name)!)]));
    return {
      passwordMs,
      oidcMs,
      roleCheckNs: roleCheckNs(),
      detailSeconds: plan.detailSeconds,
      detail,
    };
  } finally {
    await service?.stop();
    await provider.stop();
    if (service) rmSync(service.dataDir, { recursive: true, force: true });
  }
}
