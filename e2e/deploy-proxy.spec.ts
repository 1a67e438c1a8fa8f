/**
 * docs/deploy.md's nginx example, taken from the doc itself (not a copy), run by Debian's nginx in
 * front of the e2e service: TLS (a throw-away certificate), the doc's basic auth on the console,
 * its upstreams, buffering and access rules. Only what cannot hold on a test machine is replaced:
 * the port, the certificate and password files, and the upstreams' ports.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { JOB_EVENT } from '../contract/events';
import { docSnippet } from '../scripts/doc-snippet';
import { freePort } from '../test/support/free-port';
import { chromiumLaunchOptions } from './chromium';
import { expect, test } from './fixtures';
import { E2E_API_PORT } from './ports';

const API_PORT = E2E_API_PORT;
const USER = 'operator';
const PASSWORD = 'e2e-basic-auth';

let dir = '';
let port = 0;
let nginx: ChildProcess | undefined;

/** Replaces `from` with `to`, insisting it is there: a changed doc must fail here, not pass. */
function swap(text: string, from: string | RegExp, to: string): string {
  expect(text, `docs/deploy.md's nginx example has ${String(from)}`).toMatch(from);
  return text.replaceAll(from, to);
}

function siteConfig(): string {
  let site = docSnippet('docs/deploy.md', 'nginx', '# /etc/nginx/sites-available/jobdeck');
  site = swap(site, 'listen 443 ssl http2;', `listen 127.0.0.1:${port} ssl http2;`);
  site = swap(site, /\/etc\/letsencrypt\/live\/[a-z.]+\/fullchain\.pem/g, join(dir, 'cert.pem'));
  site = swap(site, /\/etc\/letsencrypt\/live\/[a-z.]+\/privkey\.pem/g, join(dir, 'key.pem'));
  site = swap(site, '/etc/nginx/jobdeck.htpasswd', join(dir, 'htpasswd'));
  site = swap(site, 'server 127.0.0.1:8080;', `server 127.0.0.1:${API_PORT};`);
  return swap(site, 'server 127.0.0.1:8081;', `server 127.0.0.1:${API_PORT + 1};`);
}

/** The smallest nginx.conf around the doc's site file, everything under the temp directory. */
function mainConfig(): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (kind) => `${kind}_temp_path ${join(dir, kind)};`,
  );
  return [
    process.getuid?.() === 0 ? 'user root;' : '',
    'daemon off;',
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 256; }',
    `http { access_log ${join(dir, 'access.log')}; ${temp.join(' ')} include ${join(dir, 'jobdeck.conf')}; }`,
  ].join('\n');
}

async function startNginx() {
  execFileSync(
    'openssl',
    [
      ...[
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=example.com',
      ],
      ...['-addext', 'subjectAltName=DNS:api.example.com,DNS:jobs.example.com'],
      ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    ],
    { stdio: 'ignore' },
  );
  const hash = execFileSync('openssl', ['passwd', '-apr1', PASSWORD], { encoding: 'utf8' }).trim();
  writeFileSync(join(dir, 'htpasswd'), `${USER}:${hash}\n`);
  writeFileSync(join(dir, 'jobdeck.conf'), siteConfig());
  writeFileSync(join(dir, 'nginx.conf'), mainConfig());
  // Debian puts it in /usr/sbin, which a user's PATH may lack.
  const binary = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
  nginx = spawn(binary, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], {
    stdio: 'ignore',
  });
  const healthStatus = async () =>
    (await throughApi('GET', '/healthz').catch(() => ({ status: 0 }))).status;
  await expect.poll(healthStatus, { message: 'nginx answers (see its error.log)' }).toBe(403);
}

/** A request to one of nginx's server blocks (the API's unless named), as a script would send it. */
function throughApi(
  method: string,
  path: string,
  key?: string,
  body?: unknown,
  site: 'api' | 'jobs' = 'api',
): Promise<{ status: number; text: string }> {
  const name = `${site}.example.com`;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `${name}:${port}` };
    if (key) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const call = httpsRequest(
      // The throw-away certificate is trusted for these calls only.
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers,
        servername: name,
        rejectUnauthorized: false,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, text }));
      },
    );
    call.on('error', reject);
    call.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

test.beforeAll(async ({ extensions }) => {
  test.skip(!extensions, 'the proxy is under test here, not the service: one run is enough');
  dir = mkdtempSync(join(tmpdir(), 'jobdeck-nginx-'));
  chmodSync(dir, 0o755); // nginx's workers read the password file
  for (const kind of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    mkdirSync(join(dir, kind));
  port = await freePort();
  await startNginx();
});

test.afterAll(() => {
  nginx?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the API behind the documented nginx: keys pass, health stays inside, the console asks who you are', async () => {
  const key = readFileSync('e2e/.artifacts/data/console.key', 'utf8').trim();
  const submitted = await throughApi('POST', '/v1/client/job', key, {
    job_definition: 'demo::hello:1',
    job_queue: 'demo::default',
  });
  expect(submitted.status, submitted.text).toBe(202);
  const { id } = (JSON.parse(submitted.text) as { data: { id: string } }).data;
  expect((await throughApi('GET', `/v1/client/job/${id}`, key)).status).toBe(200);
  // The doc keeps health and readiness for 10.0.0.0/8; this machine is outside it.
  expect((await throughApi('GET', '/readyz')).status).toBe(403);
  expect((await throughApi('GET', `/v1/client/job/${id}`)).status).toBe(401);
  // The console's server block asks for the doc's basic auth before its key is ever added.
  const console = await throughApi('GET', '/v1/client/whoami', undefined, undefined, 'jobs');
  expect(console.status).toBe(401);
  expect(console.text).not.toContain('"ok"');
});

test('the console behind the documented nginx and its basic auth: pages, API calls, live events', async () => {
  const browser = await chromium.launch({
    ...chromiumLaunchOptions,
    args: [
      ...chromiumLaunchOptions.args,
      '--host-resolver-rules=MAP jobs.example.com 127.0.0.1, MAP api.example.com 127.0.0.1',
    ],
  });
  try {
    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      httpCredentials: { username: USER, password: PASSWORD },
    });
    const page = await context.newPage();
    await page.goto(`https://jobs.example.com:${port}/`);
    // The browser repeats the basic-auth header on every call; the console replaces it with its key.
    await expect(page.getByTestId('queue-card').first()).toBeVisible();
    await expect(page.getByText(/refused the API key/)).toHaveCount(0);

    const eventMs = await page.evaluate(async (jobEvent) => {
      const source = new EventSource('/v1/client/events');
      await new Promise((resolve) => source.addEventListener('open', resolve, { once: true }));
      const started = performance.now();
      const response = await fetch('/v1/client/job', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ job_definition: 'demo::hello:1', job_queue: 'demo::default' }),
      });
      const { data } = (await response.json()) as { data: { id: string } };
      const seen = await Promise.race([
        new Promise<boolean>((resolve) =>
          source.addEventListener(jobEvent, (event) => {
            if ((event as MessageEvent<string>).data.includes(data.id)) resolve(true);
          }),
        ),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
      ]);
      source.close();
      return seen ? performance.now() - started : null;
    }, JOB_EVENT);
    // Buffered by the proxy, the event would wait for kilobytes more of stream, past the 10 s.
    expect(eventMs, 'the job event through nginx within 10 s').not.toBeNull();
    console.log(
      `deploy proxy: submit → its event in the console through nginx: ${eventMs!.toFixed(0)} ms`,
    );
    await context.close();
  } finally {
    await browser.close();
  }
});
