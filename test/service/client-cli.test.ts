import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';

const BIN = join(resolve(import.meta.dirname, '..', '..'), 'bin', 'jobdeck.js');
const SECRET = 'cli-secret-6a1f93';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The jobdeck client verbs against the real service, as a terminal user runs them: the
 * released bin, a key in the environment, real containers behind.
 */
describe('the jobdeck client command line', () => {
  let service: TestService;
  const outputs: string[] = [];
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.stop());

  function jobdeck(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
    return new Promise<Run>((resolveRun) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: {
          ...process.env,
          JOBDECK_URL: service.baseUrl,
          JOBDECK_API_KEY: service.key,
          JOBDECK_PROFILE_FILE: '/nonexistent',
          ...options.env,
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdin.end(options.stdin ?? '');
      child.on('close', (status) => {
        outputs.push(stdout, stderr);
        resolveRun({ status, stdout, stderr });
      });
    });
  }

  it("submits, follows with --wait, and exits with the job's exit code", async () => {
    const failed = await jobdeck([
      'submit',
      't::sh:1',
      't::default',
      '-p',
      'script=exit 3',
      '--wait',
    ]);
    expect(failed.status).toBe(3);
    expect(failed.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(failed.stderr).toMatch(/ failed/);
    const done = await jobdeck(['submit', 't::echo:1', 't::default', '-p', 'greeting=hi-cli']);
    expect(done.status).toBe(0);
    const id = done.stdout.trim();
    expect((await jobdeck(['watch', id, '--quiet'])).status).toBe(0);
    const logs = await jobdeck(['logs', id]);
    expect(logs.stdout).toBe('hi-cli\n');
  });

  it('reads a secret from stdin, and it appears in no output of any verb', async () => {
    const submitted = await jobdeck(
      ['submit', 't::sh:1', 't::default', '-p', 'script=echo "token=$TOKEN"', '--secret', 'TOKEN'],
      { stdin: `${SECRET}\n` },
    );
    expect(submitted.status).toBe(0);
    const id = submitted.stdout.trim();
    await waitForState(service, id, 'completed');
    expect((await jobdeck(['logs', id])).stdout).toBe('token=[TOKEN redacted]\n');
    const shown = await jobdeck(['get', id]);
    expect(shown.stdout).toMatch(/env TOKEN\s+\(sensitive\)/);
    expect((await jobdeck(['get', id, '--output', 'json'])).status).toBe(0);
    // Retried, the service keeps the secret: nothing to type, and the job gets the same value.
    const retried = await jobdeck(['retry', id, '--wait']);
    expect(retried.status, retried.stderr).toBe(0);
    const again = retried.stdout.trim();
    expect((await jobdeck(['logs', again])).stdout).toBe('token=[TOKEN redacted]\n');
    // --secret still replaces it, --drop-secret leaves it out; a name the job lacks is refused.
    const replaced = await jobdeck(['retry', id, '--secret', 'TOKEN', '--wait'], {
      stdin: 'another-value\n',
    });
    expect(replaced.status, replaced.stderr).toBe(0);
    expect((await jobdeck(['logs', replaced.stdout.trim()])).stdout).toBe(
      'token=[TOKEN redacted]\n',
    );
    const dropped = await jobdeck(['retry', id, '--drop-secret', 'TOKEN', '--wait']);
    expect(dropped.status, dropped.stderr).toBe(0);
    expect((await jobdeck(['logs', dropped.stdout.trim()])).stdout).toBe('token=\n');
    const unknown = await jobdeck(['retry', id, '--drop-secret', 'NOPE']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe(
      `jobdeck: drop_env[0]: job ${id} has no variable "NOPE" (HTTP 400)\n`,
    );
    const emptySecret = await jobdeck(['submit', 't::sh:1', 't::default', '--secret', 'TOKEN']);
    expect(emptySecret.status).toBe(2);
    expect(emptySecret.stderr).toMatch(/^jobdeck: --secret TOKEN: no value on stdin/);
    expect(outputs.join('')).not.toContain(SECRET);
  });

  it('lists, cancels one job, and exits 130 watching it', async () => {
    const started = await jobdeck(['submit', 't::sleep:1', 't::default', '--name', 'cli-sleeper']);
    const id = started.stdout.trim();
    await waitForState(service, id, 'running');
    const listed = await jobdeck(['ls', '--name', 'cli-sleeper', '--output', 'json']);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id, state: 'running' })]);
    const table = await jobdeck(['ls', '--name', 'cli-sleeper']);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+STATE\s+QUEUE\s+CREATED\s+EXIT\s+NOTE\n/);
    expect(table.stdout).toContain(id);
    expect((await jobdeck(['cancel', id])).stdout).toBe(`${id}: cancel requested\n`);
    expect((await jobdeck(['watch', id, '--quiet'])).status).toBe(130);
  });

  it('cancels every job a filter matches: a dry run first, then with --yes', async () => {
    const ids = await Promise.all(
      [1, 2].map(async () =>
        (await jobdeck(['submit', 't::echo:1', 't::paused', '-l', 'batch=cli'])).stdout.trim(),
      ),
    );
    const dry = await jobdeck(['cancel', '--label', 'batch=cli']);
    expect(dry.status).toBe(0);
    expect(dry.stderr).toContain('2 jobs match: 2 cancelled at once');
    expect(dry.stderr).toContain('run again with --yes');
    const done = await jobdeck(['cancel', '--label', 'batch=cli', '--yes']);
    expect(done.stdout).toMatch(/^done: 2 cancelled, 0 refused of 2/);
    for (const id of ids) await waitForState(service, id, 'cancelled');
  });

  it('submit --idempotency-key: a rerun answers with the job the first run made', async () => {
    const args = ['submit', 't::echo:1', 't::paused', '--idempotency-key', `cli-${Date.now()}`];
    const first = await jobdeck(args);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect((await jobdeck(args)).stdout).toBe(first.stdout);
    // Without the flag each run is a submit of its own.
    const plain = await jobdeck(['submit', 't::echo:1', 't::paused']);
    expect(plain.stdout).not.toBe(first.stdout);
  });

  it('says what went wrong in one line: the service message, a bad key, no service', async () => {
    const bad = await jobdeck(['submit', 'nope', 't::default']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^jobdeck: job_definition: [^\n]+ \(HTTP 400\)\n$/);
    const key = await jobdeck(['ls'], { env: { JOBDECK_API_KEY: 'jd_wrong' } });
    expect(key.status).toBe(1);
    expect(key.stderr).toMatch(/^jobdeck: [^\n]+ \(HTTP 401\)\n$/);
    const away = await jobdeck(['get', 'x'], {
      env: { JOBDECK_URL: `http://127.0.0.1:${await freePort()}` },
    });
    expect(away.stderr).toBe('jobdeck: cannot reach the service (ECONNREFUSED)\n');
    const usage = await jobdeck(['submit', 't::echo:1', 't::default', '-p', 'oops']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toBe('jobdeck: --param: must be KEY=VALUE (got "oops")\n');
    expect(outputs.join('')).not.toMatch(/\n\s+at /);
  });

  it('prints help for every verb and a completion script', async () => {
    for (const verb of ['submit', 'watch', 'logs', 'cancel', 'ls', 'get', 'retry', 'sizing']) {
      const help = await jobdeck([verb, '--help']);
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: jobdeck ${verb}`));
    }
    const completion = await jobdeck(['completion', 'bash']);
    expect(completion.stdout).toContain('complete -o default -F _jobdeck jobdeck');
    expect(completion.stdout).toMatch(/submit\) opts="[^"]*--secret/);
  });
});
