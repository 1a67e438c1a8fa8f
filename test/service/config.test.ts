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

async function startWith(configText: string): Promise<string> {
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
