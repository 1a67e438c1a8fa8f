import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '../../contract';
import { CSRF_SUBPROTOCOL_PREFIX, EXEC_SUBPROTOCOL } from '../../contract';
import { addUser, signIn, type SignedIn } from '../support/console-session';
import { submit, waitForState } from '../support/jobs';
import {
  execUrl,
  isRefusal,
  openExec,
  type ExecRefusal,
  type OpenExec,
} from '../support/exec-session';
import { startService, testProjects, TEST_IMAGE, type TestService } from '../support/service';

/** Commands in a running job's real container, over a real WebSocket, and every refusal. */
let service: TestService;
let viewerKey: string;
let otherKey: string;
let closedKey: string;

// Runs for the whole file: on a loaded machine the file took over 60 s, and a shared job that
// ended meanwhile failed the tests after it. The service's stop removes it.
const sleepDefinition = {
  '1': { image: TEST_IMAGE, command: ['sleep', '900'], stop_grace_seconds: 1 },
};
const projects = testProjects();
Object.assign(projects.t, { exec: true });
Object.assign(projects.other, { exec: true });
const closed = {
  queues: { default: { max_running: 1 } },
  definitions: { sleep: sleepDefinition },
};

beforeAll(async () => {
  service = await startService({ projects: { ...projects, closed } }, undefined, {
    withConsole: true,
  });
  const keyOf = (output: string) => output.match(/jd_\S+/)![0];
  const key = (project: string, role: string) =>
    service.cli('keys', 'create', '--project', project, '--role', role).then(keyOf);
  [viewerKey, otherKey, closedKey] = await Promise.all([
    key('t', 'viewer'),
    key('other', 'admin'),
    key('closed', 'admin'),
  ]);
}, 60_000);
afterAll(() => service.stop());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function runningJob(): Promise<string> {
  const id = await submit(service, { job_definition: 't::sleep:1' });
  await waitForState(service, id, 'running');
  return id;
}

async function session(
  jobId: string,
  command: string[],
  extra?: Record<string, string>,
): Promise<OpenExec> {
  const opened = await openExec(
    execUrl(service.baseUrl, jobId, command, extra),
    bearer(service.key),
  );
  if (isRefusal(opened)) throw new Error(`exec refused: ${opened.status} ${opened.body.message}`);
  return opened;
}

async function refusal(
  jobId: string,
  key: string,
  command = ['true'],
  baseUrl = service.baseUrl,
): Promise<ExecRefusal> {
  const opened = await openExec(execUrl(baseUrl, jobId, command), bearer(key));
  if (!isRefusal(opened)) {
    opened.socket.close();
    throw new Error('exec was not refused');
  }
  return opened;
}

// One running job for every test but the last, which ends its own: the queue has 4 slots.
let job: string;
beforeAll(async () => {
  job = await runningJob();
}, 60_000);

describe('a command in a running job', () => {
  it('prints what the command prints and ends with its exit code', async () => {
    const echo = await (await session(job, ['echo', 'hi'])).finished;
    expect(echo).toMatchObject({ stdout: 'hi\n', stderr: '', end: { type: 'exit', exit_code: 0 } });
    expect(echo.closeCode).toBe(1000);
    const failing = await (await session(job, ['sh', '-c', 'echo oops >&2; exit 3'])).finished;
    expect(failing).toMatchObject({ stdout: '', stderr: 'oops\n', end: { exit_code: 3 } });
  });

  it('passes stdin through, and its end', async () => {
    const cat = await session(job, ['cat']);
    cat.socket.send(Buffer.from('one\ntwo\n'));
    cat.socket.send(JSON.stringify({ type: 'eof' }));
    expect(await cat.finished).toMatchObject({ stdout: 'one\ntwo\n', end: { exit_code: 0 } });
  });

  // The size itself cannot be read back here: BusyBox's stty fails on TIOCGWINSZ in this image.
  it('runs a terminal that takes a resize and ends with the shell', async () => {
    const shell = await session(job, ['sh'], { tty: 'true', cols: '90', rows: '30' });
    shell.socket.send(Buffer.from('echo $((6 * 7))\n'));
    await expect.poll(shell.stdout, { timeout: 10_000 }).toMatch(/\r\n42\r\n/);
    shell.socket.send(JSON.stringify({ type: 'resize', cols: 120, rows: 40 }));
    shell.socket.send(Buffer.from('exit 5\n'));
    expect((await shell.finished).end).toEqual({ type: 'exit', exit_code: 5 });
  });

  it('records each session in the audit trail: who, the command, never the input', async () => {
    const cat = await session(job, ['cat']);
    cat.socket.send(Buffer.from('typed-secret-canary\n'));
    cat.socket.send(JSON.stringify({ type: 'eof' }));
    await cat.finished;
    const answer = await service.request('GET', `/v1/client/audit?action=job.exec&target=${job}`);
    const events = (answer.body.data as AuditPage).items;
    expect(events[0]).toMatchObject({
      action: 'job.exec',
      target: job,
      actor: expect.stringMatching(/^key:/),
      detail: { command: ['cat'], tty: false },
    });
    expect(events.map((e) => e.detail.command)).toContainEqual(['echo', 'hi']);
    expect(answer.text).not.toContain('typed-secret-canary');
  });

  it('refuses a text frame it does not know, saying which it takes', async () => {
    const cat = await session(job, ['cat']);
    cat.socket.send(JSON.stringify({ type: 'paste' }));
    const { end, closeCode } = await cat.finished;
    expect(end).toMatchObject({ type: 'closed', message: expect.stringContaining('resize') });
    expect(closeCode).toBe(4000);
  });
});

describe('a console session', () => {
  let alice: SignedIn;
  beforeAll(async () => {
    await addUser(service, 'alice@example.test', 'correct horse battery', {
      project: 't',
      role: 'operator',
    });
    const signedIn = await signIn(service.baseUrl, 'alice@example.test', 'correct horse battery');
    if (!('cookie' in signedIn)) throw new Error(`sign-in refused: ${signedIn.message}`);
    alice = signedIn;
  });

  it('needs its CSRF token, offered as a subprotocol: a GET that acts', async () => {
    const url = execUrl(service.baseUrl, job, ['echo', 'as alice']);
    const without = await openExec(url, { cookie: alice.cookie });
    expect(without).toMatchObject({
      status: 403,
      body: {
        ok: false,
        message: expect.stringMatching(/^x-csrf-token: missing or not this session's/),
      },
    });
    const wrong = await openExec(url, { cookie: alice.cookie }, [
      EXEC_SUBPROTOCOL,
      `${CSRF_SUBPROTOCOL_PREFIX}${'A'.repeat(alice.csrf.length)}`,
    ]);
    expect(wrong).toMatchObject({ status: 403 });
    const opened = await openExec(url, { cookie: alice.cookie }, [
      EXEC_SUBPROTOCOL,
      `${CSRF_SUBPROTOCOL_PREFIX}${alice.csrf}`,
    ]);
    if (isRefusal(opened)) throw new Error(`refused: ${opened.body.message}`);
    expect(opened.socket.protocol).toBe(EXEC_SUBPROTOCOL);
    expect(await opened.finished).toMatchObject({ stdout: 'as alice\n', end: { exit_code: 0 } });
    const audited = await service.request('GET', `/v1/client/audit?action=job.exec&target=${job}`);
    expect((audited.body.data as AuditPage).items[0]).toMatchObject({
      actor: 'user:alice@example.test',
      detail: { command: ['echo', 'as alice'] },
    });
  });

  it("reaches the job through the console's proxy, from the console's page only", async () => {
    const consoleUrl = service.consoleUrl();
    const url = execUrl(consoleUrl, job, ['sh', '-c', 'echo via console; exit 4']);
    const protocols = [EXEC_SUBPROTOCOL, `${CSRF_SUBPROTOCOL_PREFIX}${alice.csrf}`];
    const opened = await openExec(url, { cookie: alice.cookie, origin: consoleUrl }, protocols);
    if (isRefusal(opened)) throw new Error(`refused: ${opened.body.message}`);
    expect(await opened.finished).toMatchObject({
      stdout: 'via console\n',
      end: { type: 'exit', exit_code: 4 },
    });
    const crossSite = await openExec(
      url,
      { cookie: alice.cookie, origin: 'http://evil.example' },
      protocols,
    );
    expect(crossSite).toMatchObject({
      status: 403,
      body: { ok: false, message: expect.stringMatching(/^Origin: another site/) },
    });
  });
});

describe('refusals before the upgrade', () => {
  it('a job that is not running: 409 naming its state', async () => {
    const done = await submit(service, { job_definition: 't::echo:1' });
    await waitForState(service, done, 'completed');
    expect(await refusal(done, service.key)).toEqual({
      status: 409,
      body: {
        ok: false,
        message: `job_id: job ${done} is completed; a command runs only in a running job`,
      },
    });
  });

  it('a viewer: 403 naming the role needed', async () => {
    const refused = await refusal(job, viewerKey);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/needs the operator role; this API key has viewer/);
  });

  it("another project's job: 404 as for a job that does not exist", async () => {
    expect(await refusal(job, otherKey)).toEqual({
      status: 404,
      body: { ok: false, message: `job_id: no job "${job}" in this project` },
    });
  });

  it('a project that does not enable it: 403 saying how to', async () => {
    const response = await service.request(
      'POST',
      '/v1/client/job',
      { job_definition: 'closed::sleep:1', job_queue: 'closed::default' },
      closedKey,
    );
    const job = (response.body.data as { id: string }).id;
    const refused = await refusal(job, closedKey);
    expect(refused).toEqual({
      status: 403,
      body: {
        ok: false,
        message:
          'exec: off in project "closed"; its configuration enables it with projects.closed.exec: true',
      },
    });
  });

  it('whoami says where a terminal can open, so that the console offers one only there', async () => {
    const enabled = await service.request('GET', '/v1/client/whoami');
    expect(enabled.body.data).toMatchObject({ exec: { enabled: true, supported: true } });
    const off = await service.request('GET', '/v1/client/whoami', undefined, closedKey);
    expect(off.body.data).toMatchObject({ exec: { enabled: false, supported: true } });
  });

  it('no command, or a plain GET: 400 and 426 naming what is missing', async () => {
    const empty = await refusal(job, service.key, []);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/^command: /);
    const plain = await service.request('GET', `/v1/client/job/${job}/exec?command=true`);
    expect(plain.status).toBe(426);
    expect(plain.body.message).toMatch(/^Upgrade: .* is a WebSocket/);
  });
});

describe('jobdeck exec', () => {
  const BIN = join(resolve(import.meta.dirname, '..', '..'), 'bin', 'jobdeck.js');

  /** The released bin, as a script runs it: a key in the environment, stdin piped. */
  function jobdeck(args: string[], stdin = '') {
    return new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: {
          ...process.env,
          JOBDECK_URL: service.baseUrl,
          JOBDECK_API_KEY: service.key,
          JOBDECK_PROFILE_FILE: '/nonexistent',
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdin.end(stdin);
      child.on('close', (status) => done({ status, stdout, stderr }));
    });
  }

  it("exits with the command's exit code, its stdout and stderr apart", async () => {
    const run = await jobdeck(['exec', job, '--', 'sh', '-c', 'echo out; echo err >&2; exit 3']);
    expect(run).toEqual({ status: 3, stdout: 'out\n', stderr: 'err\n' });
  });

  it('pipes stdin to the command, to its end', async () => {
    expect(await jobdeck(['exec', job, '--', 'wc', '-l'], 'a\nb\nc\n')).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/^\s*3\n$/),
    });
  });

  it('gives the command a terminal with --tty', async () => {
    let run = await jobdeck(['exec', '--tty', job, '--', 'tty']);
    // runc (Debian's 1.1), on a loaded machine, now and then loses the pipe to the process it is
    // setting up; the engine answers 255 with its own words. Not Jobdeck's: asked once more.
    if (run.status === 255 && /^OCI runtime exec failed: .*broken pipe/.test(run.stdout)) {
      run = await jobdeck(['exec', '--tty', job, '--', 'tty']);
    }
    expect(run).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/^\/dev\/pts\/\d+\r\n$/),
    });
  });

  it("says the service's refusal in one line", async () => {
    const run = await jobdeck(['exec', job]);
    expect(run).toMatchObject({
      status: 2,
      stderr: 'jobdeck: exec: name the command after --, as: jobdeck exec ID -- sh\n',
    });
    const viewer = await new Promise<string>((done) => {
      const child = spawn(process.execPath, [BIN, 'exec', job, '--', 'true'], {
        env: {
          ...process.env,
          JOBDECK_URL: service.baseUrl,
          JOBDECK_API_KEY: viewerKey,
          JOBDECK_PROFILE_FILE: '/nonexistent',
        },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (status) => done(`${status} ${stderr}`));
    });
    expect(viewer).toMatch(
      /^1 jobdeck: role: GET \/v1\/client\/job\/\{job_id\}\/exec needs the operator role; this API key has viewer in this project \(HTTP 403\)\n$/,
    );
  });
});

it('closes the session, saying so, when the job ends', async () => {
  const ending = await runningJob();
  const shell = await session(ending, ['sh'], { tty: 'true' });
  const cancel = await service.request('POST', `/v1/client/job/${ending}/cancel`);
  expect(cancel.status).toBe(202);
  const { end, closeCode } = await shell.finished;
  expect(end).toEqual({ type: 'closed', message: 'job: the job ended, and the session with it' });
  expect(closeCode).toBe(4000);
});
