import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { CLI, TEST_IMAGE } from '../support/service';

/**
 * Upgrades tested, not promised: each earlier release runs from its own source (its commit, with
 * this checkout's dependencies) on a data directory, leaves jobs in every state (one running, one
 * scheduled, one waiting, each with a sensitive value), stops; the current build starts on the same
 * directory with the same configuration. A release adds a row here, and is tested against every
 * later one.
 */
const RELEASES = [{ version: '0.1.0', commit: '7ab868ef69253426e68e31b0e2e64181e774918f' }];

const ROOT = resolve(import.meta.dirname, '..', '..');
const RUN_LABEL = `upgrade-${process.pid}`;
const onPostgres = process.env.JOBDECK_TEST_STORE === 'postgres';

interface Running {
  process: ChildProcess;
  api: string;
  key: string | undefined;
  output: () => string;
}

/** Starts a `jobdeck start` and resolves once it says where its API listens. */
function startProcess(command: string[], cwd: string): Promise<Running> {
  const child = spawn(process.execPath, command, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no start within 60 s:\n${text}`)), 60_000);
    child.on('exit', (code) => fail(new Error(`exited with ${code}:\n${text}`)));
    const check = setInterval(() => {
      const api = /API: +(http:\/\/[0-9.:]+)\/v1/.exec(text)?.[1];
      if (!api) return;
      clearInterval(check);
      clearTimeout(timer);
      const key = /API key for project "\w+": (jd_[\w-]+)/.exec(text)?.[1];
      done({ process: child, api, key, output: () => text });
    }, 100);
  });
}

function stopProcess(running: Running): Promise<void> {
  return new Promise((done) => {
    running.process.removeAllListeners('exit');
    running.process.once('exit', () => done());
    running.process.kill('SIGTERM');
  });
}

async function call(running: Running, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${running.api}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function stateOf(running: Running, key: string, id: string): Promise<string> {
  const { body } = await call(running, key, 'GET', `/v1/client/job/${id}`);
  return (body.data as { state: string }).state;
}

async function waitFor(running: Running, key: string, id: string, states: string[]) {
  for (let i = 0; i < 300; i += 1) {
    const state = await stateOf(running, key, id);
    if (states.includes(state)) return state;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${id} never reached ${states.join(' or ')}`);
}

const containersOf = (jobId: string) =>
  execFileSync('docker', ['ps', '-aq', '--filter', `label=jobdeck.job=${jobId}`])
    .toString()
    .trim()
    .split('\n')
    .filter(Boolean);

/** A job that proves it got its secret (by hash, so the command holds none) after a while. */
const checksSecret = (secret: string, seconds: number) =>
  `sleep ${seconds}; test "$(printf %s "$TOK" | sha256sum | cut -d' ' -f1)" = ${createHash('sha256').update(secret).digest('hex')} && echo secret-ok`;

const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  const left = execFileSync('docker', [
    'ps',
    '-aq',
    '--filter',
    `label=jobdeck.test-run=${RUN_LABEL}`,
  ])
    .toString()
    .trim();
  if (left) execFileSync('docker', ['rm', '-f', ...left.split('\n')]);
});

describe.skipIf(onPostgres).each(RELEASES)('an upgrade from $version', ({ version, commit }) => {
  it('keeps every job, adopts the running one, runs the scheduled one with its secret, takes the old config and key', async () => {
    try {
      execFileSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: ROOT, stdio: 'ignore' });
    } catch {
      throw new Error(
        `release ${version} (${commit}) is not in this clone's history: git fetch --unshallow`,
      );
    }
    const work = mkdtempSync(join(tmpdir(), `jobdeck-upgrade-${version}-`));
    cleanups.push(() => rmSync(work, { recursive: true, force: true }));
    const source = join(work, 'release');
    execFileSync(
      'sh',
      ['-c', `mkdir -p ${source} && git archive ${commit} | tar -x -C ${source}`],
      {
        cwd: ROOT,
      },
    );
    symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'));
    const configFile = join(work, 'jobdeck.yaml');
    // The first release's configuration, as its users wrote it (docker_socket included).
    writeFileSync(
      configFile,
      stringify({
        port: 0,
        console_port: 0,
        data_dir: join(work, 'data'),
        docker_socket: '/var/run/docker.sock',
        container_labels: { 'jobdeck.test-run': RUN_LABEL },
        projects: {
          demo: {
            queues: { default: { max_running: 4 }, held: { paused: true } },
            definitions: {
              sh: { '1': { image: TEST_IMAGE, command: ['sh', '-c', 'Param::script'] } },
            },
          },
        },
      }),
    );

    const old = await startProcess(
      ['--import', 'tsx', 'server/cli.ts', 'start', '--no-console', '--config', configFile],
      source,
    );
    const key = old.key!;
    expect(key).toMatch(/^jd_/);
    const submit = async (script: string, extra: Record<string, unknown> = {}) => {
      const { status, body } = await call(old, key, 'POST', '/v1/client/job', {
        job_definition: 'demo::sh:1',
        job_queue: 'demo::default',
        container_cmd_parameter: { script },
        ...extra,
      });
      expect(status).toBe(202);
      return (body.data as { id: string }).id;
    };
    const secret = (name: string) => ({ container_env: { TOK: { value: name, sensitive: true } } });
    const completed = await submit('echo done');
    const failed = await submit('exit 3');
    const running = await submit(checksSecret('running-secret', 6), secret('running-secret'));
    const scheduled = await submit(checksSecret('scheduled-secret', 0), {
      ...secret('scheduled-secret'),
      schedule_at: Math.ceil(Date.now() / 1000) + 8,
    });
    const waiting = await submit('echo never', { job_queue: 'demo::held', ...secret('held') });
    const cancelled = await submit('echo never', { job_queue: 'demo::held' });
    expect((await call(old, key, 'POST', `/v1/client/job/${cancelled}/cancel`)).status).toBe(202);
    await waitFor(old, key, completed, ['completed']);
    await waitFor(old, key, failed, ['failed']);
    await waitFor(old, key, running, ['running']);
    expect(await stateOf(old, key, scheduled)).toBe('pending');
    await stopProcess(old);
    expect(containersOf(running)).toHaveLength(1); // still running, for the next start to adopt

    const current = await startProcess(
      [...CLI, 'start', '--no-console', '--config', configFile],
      ROOT,
    );
    cleanups.push(() => current.process.kill('SIGKILL'));
    // The old configuration is accepted, with a warning that names the new key.
    expect(current.output()).toContain('docker_socket (0.1) is now engine: { type: docker');
    // The old key still works; every job is where it was, or settled as it should be.
    expect(await stateOf(current, key, completed)).toBe('completed');
    expect(await stateOf(current, key, failed)).toBe('failed');
    expect(await stateOf(current, key, cancelled)).toBe('cancelled');
    expect(await waitFor(current, key, running, ['completed', 'failed', 'error'])).toBe(
      'completed',
    );
    expect(await waitFor(current, key, scheduled, ['completed', 'failed', 'error'])).toBe(
      'completed',
    );
    expect(await stateOf(current, key, waiting)).toBe('runnable');
    for (const id of [running, scheduled]) {
      const logs = await call(current, key, 'GET', `/v1/client/job/${id}/logs`);
      expect((logs.body.data as { text: string }).text).toBe('secret-ok\n'); // ran once, with it
    }
    // The adopted container was settled once and removed, as every other is.
    for (let i = 0; i < 50 && containersOf(running).length > 0; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(containersOf(running)).toEqual([]);
    const history = await call(current, key, 'GET', `/v1/client/job/${running}/transitions`);
    const steps = (history.body.data as { items: { to: string }[] }).items.map((t) => t.to);
    expect(steps.filter((to) => to === 'running')).toHaveLength(1);
    expect(current.output()).not.toMatch(/running-secret|scheduled-secret/);
    await stopProcess(current);
  }, 180_000);
});
