import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startService } from '../support/service';
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
    await run(
      process.execPath,
      ['--import', 'tsx', 'server/cli.ts', 'start', '--no-console', '--config', file],
      {
        cwd: ROOT,
        timeout: 30_000,
        env: { ...process.env, ...env },
      },
    );
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
      'jobdeck: store: cannot open postgresql://jd:***@127.0.0.1:1/jobdeck: connect ECONNREFUSED 127.0.0.1:1\n',
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

  it('keeps only the last log_tail_bytes of output and says it was cut', async () => {
    const service = await startService({ log_tail_bytes: 64 });
    try {
      const id = await submit(service, { job_definition: 't::chatty:1' });
      await waitForState(service, id, 'completed');
      const response = await service.request('GET', `/v1/client/job/${id}/logs`);
      const logs = response.body.data as { text: string; truncated: boolean };
      expect(logs.truncated).toBe(true);
      expect(Buffer.byteLength(logs.text)).toBeLessThanOrEqual(64);
      expect(await logsOf(service, id)).toMatch(/line 200\n$/);
    } finally {
      await service.stop();
    }
  });
});
