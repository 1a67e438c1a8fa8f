import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { freePort, portWasTaken } from './free-port';
import { testStore } from './test-store';

const ROOT = resolve(import.meta.dirname, '..', '..');
/**
 * The compiled service, as released (global-setup.ts builds it when its sources changed): it
 * starts in a fraction of tsx's time, and what is tested is what ships. One process, no
 * wrapper, so a SIGKILL in a test kills the service itself.
 */
export const CLI = [join(ROOT, 'dist', 'server', 'cli.js')];

/** `npm run build --if-changed`: seconds after an edit, a hash check otherwise. */
export function buildIfChanged(): void {
  execFileSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'scripts', 'build.ts'), '--if-changed'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
}
export const TEST_IMAGE = 'jobdeck/busybox:local';

/** Every container a test or bench service creates carries this label, so the run can clean up. */
export const RUN_LABEL = 'jobdeck.test-run';
export const runId = () => process.env.JOBDECK_TEST_RUN ?? 'manual';

export function removeRunContainers(id: string): void {
  const ids = execFileSync('docker', ['ps', '-aq', '--filter', `label=${RUN_LABEL}=${id}`])
    .toString()
    .split('\n')
    .filter(Boolean);
  if (ids.length > 0) execFileSync('docker', ['rm', '-f', ...ids], { stdio: 'ignore' });
}

const run = promisify(execFile);

/** The projects every test service declares: small limits so each path is quick to reach. */
export function testProjects() {
  const image = TEST_IMAGE;
  return {
    t: {
      queues: {
        default: { max_running: 4, priority: 10 },
        single: { max_running: 1, priority: 0 },
        paused: { paused: true },
      },
      definitions: {
        echo: {
          '1': { image, command: ['echo', 'Param::greeting'], parameters: { greeting: 'hello' } },
        },
        sh: {
          '1': {
            image,
            command: ['sh', '-c', 'Param::script'],
            parameters: { script: 'true' },
            env: { FROM_DEFINITION: 'def', OVERRIDDEN: 'def' },
          },
        },
        sleep: {
          '1': {
            image,
            command: ['sleep', 'Param::seconds'],
            parameters: { seconds: '30' },
            stop_grace_seconds: 1,
          },
        },
        // Ignores SIGTERM, so only the grace period's SIGKILL ends it.
        stubborn: {
          '1': {
            image,
            command: ['sh', '-c', "trap '' TERM; sleep 30 & wait; sleep 30"],
            stop_grace_seconds: 1,
          },
        },
        short: {
          '1': { image, command: ['sleep', '30'], timeout_seconds: 1, stop_grace_seconds: 1 },
        },
        ghost: { '1': { image: 'jobdeck/no-such-image:missing', command: ['true'] } },
        // Prints the memory limit and CPU quota the engine applied (cgroup v2, else v1).
        limited: {
          '1': {
            image,
            command: [
              'sh',
              '-c',
              'cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes; cat /sys/fs/cgroup/cpu.max 2>/dev/null || cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us',
            ],
            memory: '64m',
            cpus: 0.5,
          },
        },
        // A non-root user on a read-only root filesystem, with a writable /tmp.
        locked: {
          '1': {
            image,
            command: [
              'sh',
              '-c',
              'id -u; touch /x 2>/dev/null && echo root-writable; touch /tmp/ok && echo tmp-writable',
            ],
            user: '1000:1000',
            read_only_root: true,
          },
        },
        chatty: {
          '1': { image, command: ['sh', '-c', 'for i in $(seq 1 200); do echo "line $i"; done'] },
        },
      },
    },
    other: {
      queues: { default: { max_running: 1 } },
      definitions: { echo: { '1': { image, command: ['echo', 'other'] } } },
    },
  };
}

export interface TestService {
  pid(): number;
  /** Empty unless started with the console. */
  consoleUrl(): string;
  baseUrl: string;
  key: string;
  dataDir: string;
  configFile: string;
  /** Everything the process wrote to stdout and stderr, for leak checks. */
  output(): string;
  /** The files holding the service's store at rest (SQLite's, or its PostgreSQL database's). */
  storeFiles(): Promise<string[]>;
  /** Stops the process; resolves with its exit code (null when a signal ended it). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Starts the service again on the same data directory and port (with `env` added, if given). */
  restart(env?: Record<string, string>): Promise<void>;
  /** Resolves when the process has exited by itself (a fail point, a crash). */
  exited(): Promise<void>;
  cli(...args: string[]): Promise<string>;
  /** `headers`: sent besides the key and the content type (an Idempotency-Key). */
  request(
    method: string,
    path: string,
    body?: unknown,
    key?: string | null,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: { ok: boolean; message?: string; data?: unknown } & Record<string, unknown>;
  text: string;
}

export async function startService(
  settings: Record<string, unknown> = {},
  dataDir = mkdtempSync(join(tmpdir(), 'jobdeck-test-')),
  options: {
    withConsole?: boolean;
    /** The console's port when it must be known before the start (an OpenID Provider's redirect). */
    consolePort?: number;
    env?: Record<string, string>;
    /** Node's own flags for the service process (`--cpu-prof` for a profile). */
    nodeArgs?: string[];
  } = {},
): Promise<TestService> {
  const configFile = join(dataDir, 'jobdeck.yaml');
  const store = await testStore();
  writeFileSync(
    configFile,
    stringify({
      port: 0,
      rate_limit_per_minute: 0,
      projects: testProjects(),
      container_labels: { [RUN_LABEL]: runId() },
      ...store.settings,
      ...settings,
      data_dir: dataDir,
    }),
  );
  let chunks: string[] = [];
  const allOutput: string[] = [];
  let child: ChildProcess;
  let baseUrl = '';
  let consoleUrl = '';
  let key = '';

  const launch = async (port: number, env: Record<string, string> = {}) => {
    chunks = [];
    const consoleArgs = options.withConsole
      ? ['--console-port', String(options.consolePort ?? 0)]
      : ['--no-console'];
    child = spawn(
      process.execPath,
      [
        ...(options.nodeArgs ?? []),
        ...CLI,
        'start',
        ...consoleArgs,
        '--config',
        configFile,
        '--port',
        String(port),
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...env },
      },
    );
    const collect = (data: Buffer) => {
      chunks.push(data.toString());
      allOutput.push(data.toString());
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    await new Promise<void>((resolveReady, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`service did not start:\n${chunks.join('')}`)),
        30_000,
      );
      const check = () => {
        const text = chunks.join('');
        const api = /API:\s+(http:\/\/[\d.:]+)\/v1/.exec(text);
        if (api?.[1]) {
          clearTimeout(timer);
          baseUrl = api[1];
          // The key is printed only on the first start, so tests read it where the service keeps it.
          key = readFileSync(join(dataDir, 'console.key'), 'utf8').trim();
          consoleUrl = /Console: (http:\/\/[\d.:]+)/.exec(text)?.[1] ?? '';
          resolveReady();
        }
      };
      child.stdout!.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`service exited with ${code}:\n${chunks.join('')}`));
      });
    });
  };

  // Another test may pick the same free port between the check and the service's bind.
  for (let attempt = 1; ; attempt++) {
    try {
      await launch(await freePort(), options.env);
      break;
    } catch (error) {
      if (attempt === 3 || !portWasTaken(error)) throw error;
    }
  }

  const service: TestService = {
    get baseUrl() {
      return baseUrl;
    },
    get key() {
      return key;
    },
    dataDir,
    configFile,
    pid: () => child.pid ?? 0,
    consoleUrl: () => consoleUrl,
    output: () => allOutput.join(''),
    storeFiles: () => store.filesAtRest(dataDir),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill(signal);
      // A frozen (SIGSTOPped) process would hold any signal but SIGKILL until it is resumed.
      child.kill('SIGCONT');
      return exited;
    },
    async restart(env) {
      await service.stop();
      await launch(Number(new URL(baseUrl).port), env);
    },
    exited() {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => child.once('exit', () => resolve()));
    },
    async cli(...args) {
      const { stdout } = await run(process.execPath, [...CLI, ...args, '--config', configFile], {
        cwd: ROOT,
      });
      return stdout.trim();
    },
    async request(method, path, body, keyOverride, extraHeaders = {}) {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...extraHeaders,
      };
      const auth = keyOverride === undefined ? key : keyOverride;
      if (auth !== null) headers.authorization = `Bearer ${auth}`;
      const send = () =>
        fetch(`${baseUrl}${path}`, {
          method,
          headers,
          body:
            body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        });
      // A kept-alive connection the service closed just as it was reused (its idle timeout and
      // the client's race on a loaded machine): a GET is safe to send again, as any client would.
      const response = await send().catch((error: unknown) => {
        const reset = (error as { cause?: { code?: string } }).cause?.code === 'ECONNRESET';
        if (method === 'GET' && reset) return send();
        throw error;
      });
      const text = await response.text();
      // A file the service sends (a CSV) has no envelope: its text is the answer.
      const isJson = response.headers.get('content-type')?.startsWith('application/json') ?? true;
      const answer = isJson || !response.ok ? JSON.parse(text) : {};
      return { status: response.status, headers: response.headers, body: answer, text };
    },
  };
  return service;
}

/** A failure in CI can only be read from its log: each service's last lines go there. */
export function printLastLines(services: readonly TestService[], lines = 40): void {
  for (const [i, service] of services.entries()) {
    const tail = service.output().trimEnd().split('\n').slice(-lines).join('\n');
    console.error(`instance ${i} (pid ${service.pid()}), its last lines:\n${tail}`);
  }
}
