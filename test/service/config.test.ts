import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { CLI, startService } from '../support/service';
import { logsOf, submit, waitForState } from '../support/jobs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);

async function startWith(configText: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const file = join(
    (await import('node:os')).tmpdir(),
    `jobdeck-bad-${process.pid}-${Date.now()}.yaml`,
  );
  writeFileSync(file, configText);
  try {
    await run(process.execPath, [...CLI, 'start', '--no-console', '--config', file], {
      cwd: ROOT,
      timeout: 30_000,
      env: { ...process.env, ...env },
    });
    return 'started';
  } catch (error) {
    return (error as { stderr: string }).stderr;
  }
}

describe('configuration', () => {
  it('refuses a bad file, naming the file, the line and the key', async () => {
    const stderr = await startWith(
      [
        'port: 0',
        'projects:',
        '  demo:',
        '    queues:',
        '      default: { max_running: -1 }',
        '    definitions: {}',
      ].join('\n'),
    );
    expect(stderr).toMatch(
      /jobdeck-bad-[\d-]+\.yaml:5: projects\.demo\.queues\.default\.max_running: must be positive/,
    );
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace for a configuration mistake
  });

  it('names a mistyped key once, at its own line, with the key it most likely meant', async () => {
    const stderr = await startWith(
      [
        'port: 0',
        'max_runing: 3',
        'projects:',
        '  demo:',
        '    queues: { default: { max_running: 2, priorty: 1 } }',
        '    definitions: {}',
      ].join('\n'),
    );
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^(jobdeck: )?\S+jobdeck-bad-[\d-]+\.yaml:2: max_runing: unknown key; did you mean max_running\?$/,
        ),
        expect.stringMatching(
          /\.yaml:5: projects\.demo\.queues\.default\.priorty: unknown key; did you mean priority\?$/,
        ),
      ]),
    );
    expect(stderr.match(/max_runing/g)).toHaveLength(1);
  });

  it('says a missing key is required, not what type undefined is', async () => {
    const stderr = await startWith(
      [
        'port: 0',
        'projects:',
        '  demo:',
        '    queues: {}',
        "    definitions: { hello: { '1': { command: [echo] } } }",
      ].join('\n'),
    );
    expect(stderr).toMatch(
      /\.yaml:5: projects\.demo\.definitions\.hello\.1\.image: is required\n$/,
    );
    expect(stderr).not.toContain('undefined');
  });

  it('names the variable of a bad secret key, and warns of a JOBDECK_ variable it does not read', async () => {
    const config = 'port: 0\nprojects: {}\n';
    const short = await startWith(config, { JOBDECK_SECRET_KEY: 'short' });
    expect(short).toBe(
      'jobdeck: JOBDECK_SECRET_KEY: must be base64 of 32 random bytes (openssl rand -base64 32)\n',
    );
    const typo = await startWith(config, { JOBDECK_PROT: '1', JOBDECK_SECRET_KEY: 'short' });
    expect(typo).toContain(
      'jobdeck: warning: JOBDECK_PROT is not a variable Jobdeck reads; did you mean JOBDECK_PORT? (ignored)\n',
    );
  });

  it("accepts the first release's docker_socket with a warning that names engine.socket", async () => {
    const stderr = await startWith(
      'port: 0\ndocker_socket: /nonexistent/docker.sock\nprojects: {}\n',
    );
    expect(stderr).toMatch(
      /^jobdeck: warning: \S+\.yaml:2: docker_socket \(0\.1\) is now engine: \{ type: docker, socket: … \}: write that instead \(accepted until 0\.3\.0\)\n/,
    );
    // Accepted, and used: the start fails on that socket, not on the key.
    expect(stderr).toContain('/nonexistent/docker.sock');
    expect(stderr).not.toContain('Unrecognized key');
  });

  it('refuses YAML that does not parse, with its line', async () => {
    const stderr = await startWith('port: 0\nprojects:\n  demo: [unclosed\n');
    expect(stderr).toMatch(/jobdeck-bad-[\d-]+\.yaml:\d+: /);
  });

  it('refuses a PostgreSQL store without a URL, naming the key and the variable', async () => {
    const config = ['port: 0', 'store:', '  type: postgres', '  pool_size: 0', 'projects: {}'];
    const stderr = await startWith(config.join('\n'), { JOBDECK_DATABASE_URL: '' });
    expect(stderr).toMatch(
      /jobdeck-bad-[\d-]+\.yaml:3: store\.url: missing: set store\.url or the JOBDECK_DATABASE_URL variable\n.*jobdeck-bad-[\d-]+\.yaml:4: store\.pool_size: must be positive/,
    );
    // The variable supplies the URL the file leaves out: this one is refused for its scheme.
    const fromVariable = await startWith(config.join('\n'), {
      JOBDECK_DATABASE_URL: 'mysql://db/jobdeck',
    });
    expect(fromVariable).toMatch(/:3: store\.url: must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(await startWith('port: 0\nstore: { type: mysql }\nprojects: {}')).toMatch(
      /jobdeck-bad-[\d-]+\.yaml:2: store\.type: must be sqlite or postgres/,
    );
  });

  it('refuses an instance timeout too short for the heartbeat, naming both keys', async () => {
    const stderr = await startWith(
      [
        'port: 0',
        'reconcile_interval_seconds: 2',
        'instance_timeout_seconds: 5',
        'projects: {}',
      ].join('\n'),
    );
    expect(stderr).toMatch(
      /jobdeck-bad-[\d-]+\.yaml:3: instance_timeout_seconds: must be at least 3 × reconcile_interval_seconds/,
    );
  });

  it('says which store it cannot open, without the password or a stack trace', async () => {
    const stderr = await startWith(
      'port: 0\nstore: { type: postgres, url: "postgresql://jd:s3cret@127.0.0.1:1/jobdeck" }\nprojects: {}',
    );
    expect(stderr).toBe(
      'jobdeck: store: cannot open postgresql://jd:***@127.0.0.1:1/jobdeck: connect ECONNREFUSED 127.0.0.1:1; check that PostgreSQL runs there and accepts these credentials (store.url or JOBDECK_DATABASE_URL)\n',
    );
  });

  it('refuses to start when a definition version changed after a job used it', async () => {
    const service = await startService();
    const id = await submit(service, { job_definition: 't::echo:1' });
    await waitForState(service, id, 'completed');
    await service.stop();
    const config = parse(readFileSync(service.configFile, 'utf8')) as {
      projects: { t: { definitions: { echo: Record<string, { command: string[] }> } } };
    };
    config.projects.t.definitions.echo['1']!.command = ['echo', 'changed'];
    writeFileSync(service.configFile, stringify(config));
    await expect(service.restart()).rejects.toThrow(
      /job definitions are immutable once used, but these changed: t::echo:1; restore them and declare a new version instead/,
    );
  });

  it('keeps only the last job_output.max_bytes_per_job of output and says how much of what', async () => {
    const service = await startService({
      job_output: { max_bytes_per_job: 64, max_bytes_per_project: 1024 },
    });
    try {
      const id = await submit(service, { job_definition: 't::chatty:1' });
      await waitForState(service, id, 'completed');
      const response = await service.request('GET', `/v1/client/job/${id}/logs`);
      const logs = response.body.data as { text: string; kept_bytes: number };
      expect(logs).toMatchObject({ truncated: true, total_lines: 200 });
      expect(logs.kept_bytes).toBe(Buffer.byteLength(logs.text));
      expect(logs.kept_bytes).toBeLessThanOrEqual(64);
      expect(await logsOf(service, id)).toMatch(/line 200\n$/);
    } finally {
      await service.stop();
    }
  });
});
