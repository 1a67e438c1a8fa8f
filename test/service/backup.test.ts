import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submit, waitForState } from '../support/jobs';
import { CLI, startService, type TestService } from '../support/service';

const ROOT = resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const onPostgres = process.env.JOBDECK_TEST_STORE === 'postgres';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

/** `jobdeck backup …` expected to fail: its stderr, which must be one line. */
async function refusedBackup(file: string): Promise<string> {
  const error = await run(
    process.execPath,
    [...CLI, 'backup', file, '--config', service.configFile],
    { cwd: ROOT },
  ).then(
    () => undefined,
    (failure: { code: number; stderr: string }) => failure,
  );
  expect(error, 'the backup should have been refused').toBeDefined();
  expect(error!.code).toBe(1);
  expect(error!.stderr.trim().split('\n')).toHaveLength(1); // one line, no stack trace
  return error!.stderr.trim();
}

describe.skipIf(onPostgres)('jobdeck backup (SQLite)', () => {
  it('copies the store while the service runs and takes submits', async () => {
    const canary = `backup-canary-${Date.now()}`;
    const done = await submit(service, {
      job_definition: 't::echo:1',
      container_env: { TOKEN: { value: canary, sensitive: true } },
    });
    await waitForState(service, done, 'completed', 60_000);

    // Writes go on during the copy: jobs that wait in the paused queue, submitted meanwhile.
    const file = join(mkdtempSync(join(tmpdir(), 'jobdeck-backup-')), 'jobdeck.sqlite');
    const submits = Array.from({ length: 40 }, () =>
      submit(service, { job_definition: 't::echo:1', job_queue: 't::paused' }),
    );
    const report = await service.cli('backup', file);
    const waiting = await Promise.all(submits);
    expect(report).toMatch(/^backed up .*jobdeck\.sqlite to .*jobdeck\.sqlite in \d+ ms; /);

    expect(statSync(file).mode & 0o777).toBe(0o600);
    const copy = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const job = copy.prepare('SELECT state, exit_code FROM jobs WHERE id = ?').get(done);
      expect(job).toEqual({ state: 'completed', exit_code: 0 });
      // A consistent snapshot: whichever submits it caught, each with its transitions.
      const { jobs } = copy.prepare('SELECT count(*) AS jobs FROM jobs').get() as { jobs: number };
      expect(jobs).toBeGreaterThanOrEqual(1);
      expect(jobs).toBeLessThanOrEqual(1 + waiting.length);
      const orphans = copy
        .prepare(
          'SELECT count(*) AS n FROM jobs WHERE NOT EXISTS (SELECT 1 FROM job_transitions t WHERE t.job_id = jobs.id)',
        )
        .get() as { n: number };
      expect(orphans.n).toBe(0);
    } finally {
      copy.close();
    }
    // Sealed, as in the store itself.
    expect(readFileSync(file).includes(canary)).toBe(false);

    // The service went on meanwhile.
    expect((await service.request('GET', `/v1/client/job/${waiting.at(-1)}`)).status).toBe(200);
  });

  it('refuses the store file itself and a directory that does not exist, in one line', async () => {
    const own = join(service.dataDir, 'jobdeck.sqlite');
    expect(await refusedBackup(own)).toMatch(/^jobdeck: backup: .* is the store's own file; /);
    expect(await refusedBackup('/nonexistent-dir/jobdeck.sqlite')).toMatch(
      /^jobdeck: backup: no directory \/nonexistent-dir for /,
    );
  });
});

describe.runIf(onPostgres)('jobdeck backup (PostgreSQL)', () => {
  it('refuses in one line and points to pg_dump', async () => {
    const message = await refusedBackup(join(tmpdir(), 'jobdeck-never-written.sqlite'));
    expect(message).toMatch(/^jobdeck: backup: the store is PostgreSQL .*pg_dump/);
  });
});
