import { execFile } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { freePort } from '../support/free-port';
import { CLI, TEST_IMAGE } from '../support/service';

const ROOT = resolve(import.meta.dirname, '..', '..');

interface Outcome {
  /** Null when the service started (and was stopped by the test). */
  code: number | null;
  stdout: string;
  stderr: string;
}

const minimalProjects = {
  t: {
    queues: { default: {} },
    definitions: { echo: { '1': { image: TEST_IMAGE, command: ['echo'] } } },
  },
};

/** A configuration file in a folder of its own (readable by any user, for the run-as test). */
function configFile(settings: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'jobdeck-startup-'));
  chmodSync(dir, 0o755);
  const file = join(dir, 'jobdeck.yaml');
  writeFileSync(
    file,
    stringify({ port: 0, data_dir: join(dir, 'data'), projects: minimalProjects, ...settings }),
  );
  chmodSync(file, 0o644);
  return file;
}

/**
 * Runs `jobdeck start` and returns what it printed: when it refuses, the exit code and stderr;
 * when it starts (the API line appears), it is stopped at once.
 */
function start(
  file: string,
  options: {
    args?: string[];
    env?: Record<string, string>;
    /** A command to run the service through (to run it as another user). */
    prefix?: string[];
    cwd?: string;
    withConsole?: boolean;
  } = {},
): Promise<Outcome> {
  const [command, ...prefix] = [...(options.prefix ?? []), process.execPath];
  const consoleArgs = options.withConsole ? [] : ['--no-console'];
  return new Promise((done) => {
    const child = execFile(
      command!,
      [...prefix, ...CLI, 'start', ...consoleArgs, '--config', file, ...(options.args ?? [])],
      { cwd: options.cwd ?? ROOT, timeout: 30_000, env: { ...process.env, ...options.env } },
      (error, stdout, stderr) =>
        done({ code: started ? null : ((error?.code as number) ?? 0), stdout, stderr }),
    );
    let started = false;
    child.stdout!.on('data', (text: string) => {
      if (!started && text.includes('API:')) {
        started = true;
        child.kill('SIGTERM');
      }
    });
  });
}

/** A one-line refusal: `jobdeck: …`, nothing else, and no trace of a stack. */
function expectOneLine(outcome: Outcome): string {
  expect(outcome.code).toBe(1);
  expect(outcome.stderr).toMatch(/^jobdeck: [^\n]+\n$/);
  expect(outcome.stderr).not.toMatch(/\n\s+at |Error:/);
  return outcome.stderr;
}

async function listenOnFreePort(): Promise<Server> {
  const port = await freePort();
  return new Promise((done) => {
    const server = createServer();
    server.listen(port, '127.0.0.1', () => done(server));
  });
}

const portOf = (server: Server) => (server.address() as { port: number }).port;

describe('start-up failures are one line that says what to do', () => {
  it('a port in use names the key, the address and the ways to choose another', async () => {
    const holder = await listenOnFreePort();
    try {
      const port = portOf(holder);
      const stderr = expectOneLine(await start(configFile({}), { args: ['--port', String(port)] }));
      expect(stderr).toContain(`jobdeck: port: 127.0.0.1:${port} is already in use`);
      expect(stderr).toContain('--port, JOBDECK_PORT or port: in the configuration');
    } finally {
      holder.close();
    }
  });

  it('a console port in use names console_port', async () => {
    const holder = await listenOnFreePort();
    try {
      const port = portOf(holder);
      const outcome = await start(configFile({ console_port: port }), { withConsole: true });
      expect(expectOneLine(outcome)).toContain(
        `jobdeck: console_port: 127.0.0.1:${port} is already in use`,
      );
    } finally {
      holder.close();
    }
  });

  it('a data directory that cannot be a directory names data_dir', async () => {
    const file = configFile({});
    const notADirectory = join(file, '..', 'a-file');
    writeFileSync(notADirectory, '');
    const stderr = expectOneLine(await start(file, { args: ['--data-dir', notADirectory] }));
    expect(stderr).toContain(`jobdeck: data_dir: cannot write to ${notADirectory} (EEXIST)`);
    expect(stderr).toContain('or choose another with --data-dir or JOBDECK_DATA_DIR');
  });

  it.runIf(userInfo().uid === 0)(
    'a data directory the service user may not write to names the user',
    async () => {
      const file = configFile({});
      const dataDir = join(file, '..', 'data');
      mkdirSync(dataDir, { mode: 0o755 }); // root's, not writable by nobody
      const stderr = expectOneLine(
        await start(file, {
          prefix: ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'],
        }),
      );
      expect(stderr).toContain(`jobdeck: data_dir: cannot write to ${dataDir} (EACCES)`);
      expect(stderr).toContain('uid 65534');
    },
  );

  it('a database that cannot be reached says what to check, without the password', async () => {
    const port = await freePort();
    const stderr = expectOneLine(
      await start(
        configFile({
          store: { type: 'postgres', url: `postgresql://jd:s3cret@127.0.0.1:${port}/jd` },
        }),
      ),
    );
    expect(stderr).toBe(
      `jobdeck: store: cannot open postgresql://jd:***@127.0.0.1:${port}/jd: connect ECONNREFUSED 127.0.0.1:${port}; check that PostgreSQL runs there and accepts these credentials (store.url or JOBDECK_DATABASE_URL)\n`,
    );
  });

  it('an engine that does not answer names its socket and how to start it', async () => {
    const socket = join(tmpdir(), `jobdeck-no-engine-${process.pid}.sock`);
    const stderr = expectOneLine(await start(configFile({ engine: { type: 'docker', socket } })));
    expect(stderr).toBe(
      `jobdeck: engine: the container engine is unreachable at ${socket} (ENOENT); start the engine (systemctl start docker), or correct engine: in the configuration\n`,
    );
  });

  it('a missing configuration file says how to give one', async () => {
    const missing = join(tmpdir(), `jobdeck-no-config-${process.pid}.yaml`);
    const stderr = expectOneLine(await start(missing));
    expect(stderr).toContain(
      `jobdeck: ${missing}: no configuration file there: pass --config FILE`,
    );
    expect(stderr).toContain(join(ROOT, 'config', 'jobdeck.yaml'));
  });
});

describe('configuration from the environment', () => {
  const apiPortOf = (outcome: Outcome) =>
    Number(/API:\s+http:\/\/[\d.]+:(\d+)/.exec(outcome.stdout)?.[1]);

  it('takes the file, then JOBDECK_* variables, then flags', async () => {
    const [fromFile, fromEnvironment, fromFlag] = [
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const file = configFile({ port: fromFile });
    const env = { JOBDECK_PORT: String(fromEnvironment) };
    expect(apiPortOf(await start(file))).toBe(fromFile);
    expect(apiPortOf(await start(file, { env }))).toBe(fromEnvironment);
    expect(apiPortOf(await start(file, { env, args: ['--port', String(fromFlag)] }))).toBe(
      fromFlag,
    );
  });

  it('JOBDECK_DATA_DIR is read, a relative one from the working directory', async () => {
    const base = mkdtempSync(join(tmpdir(), 'jobdeck-env-data-'));
    const outcome = await start(configFile({}), { cwd: base, env: { JOBDECK_DATA_DIR: 'here' } });
    expect(outcome.code).toBeNull();
    expect(outcome.stdout).toContain(`data in ${join(base, 'here')}`);
    expect(readFileSync(join(base, 'here', 'console.key'), 'utf8')).toMatch(/^jd_/);
  });

  it('a bad value names its variable, not the file', async () => {
    const file = configFile({});
    expect(expectOneLine(await start(file, { env: { JOBDECK_PORT: 'eighty' } }))).toMatch(
      /^jobdeck: JOBDECK_PORT: .*number/,
    );
    expect(expectOneLine(await start(file, { env: { JOBDECK_LOG_LEVEL: 'loud' } }))).toMatch(
      /^jobdeck: JOBDECK_LOG_LEVEL: /,
    );
  });
});

describe('the compiled CLI’s code cache', () => {
  it('is written by a start without one, into JOBDECK_CODE_CACHE_DIR, and read by the next', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'jobdeck-code-cache-'));
    const file = configFile({});
    const env = { JOBDECK_CODE_CACHE_DIR: cacheDir };

    expect((await start(file, { env })).code).toBeNull();
    const written = readdirSync(cacheDir);
    expect(written).toEqual([expect.stringMatching(/^jobdeck\.[0-9a-f]{16}\.v8cache$/)]);
    const cache = join(cacheDir, written[0]!);
    const { size, mtimeMs } = statSync(cache);
    expect(size).toBeGreaterThan(100_000);

    // A start writes the cache only when it had none that V8 took: untouched means it was read.
    expect((await start(file, { env })).code).toBeNull();
    expect(readdirSync(cacheDir)).toEqual(written);
    expect(statSync(cache).mtimeMs).toBe(mtimeMs);
  });
});

/** Runs a CLI command (not start) with this configuration; its exit code and what it printed. */
function command(file: string, args: string[]): Promise<Outcome> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [...CLI, ...args, '--config', file],
      { cwd: ROOT, timeout: 30_000 },
      (error, stdout, stderr) => done({ code: (error?.code as number) ?? 0, stdout, stderr }),
    );
  });
}

describe('what the commands print', () => {
  it("start suggests a submit of this configuration's own project, not a demo it may lack", async () => {
    const outcome = await start(configFile({}));
    expect(outcome.code).toBeNull();
    expect(outcome.stdout).toContain(
      `-d '{"job_definition":"t::echo:1","job_queue":"t::default"}'`,
    );
    expect(outcome.stdout).not.toContain('demo::');
  });

  it('secrets new-key says what it did, and in one line why it cannot before the first start', async () => {
    const file = configFile({});
    const early = await command(file, ['secrets', 'new-key']);
    expect(expectOneLine(early)).toMatch(
      /^jobdeck: no key file in .* yet: the first start makes one/,
    );
    expect(early.stderr).not.toContain('unexpected');
    expect((await start(file)).code).toBeNull(); // the first start writes secret.key
    const made = await command(file, ['secrets', 'new-key']);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^new current key \S+; \S+ retired \(still opens its values\)/);
  });
});
