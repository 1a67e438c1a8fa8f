import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { BENCH_SETTINGS, rssMiB } from '../jobdeck-client';
import { round, sleep, summary } from '../stats';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** How the service is started: the sources through tsx (the old `npm start`), or the build. */
export const LAUNCHERS = {
  tsx: ['--import', 'tsx', join(ROOT, 'server', 'cli', 'main.ts')],
  compiled: [join(ROOT, 'dist', 'server', 'cli.js')],
} as const;

/**
 * Spawn → "API:" line printed (the API listens, recovery done), and the resident set one second
 * later with nothing to do. `dataDir` may hold a store already (the cost-growth figures).
 */
export async function startOnce(
  launcher: readonly string[],
  dataDir = mkdtempSync(join(tmpdir(), 'jobdeck-bench-start-')),
): Promise<{ startupMs: number; idleRssMiB: number }> {
  const config = join(dataDir, 'bench.yaml');
  writeFileSync(
    config,
    stringify({ ...BENCH_SETTINGS, port: 0, data_dir: dataDir, rate_limit_per_minute: 0 }),
  );
  const began = performance.now();
  const child = spawn(
    process.execPath,
    [...launcher, 'start', '--no-console', '--config', config],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    await new Promise<void>((done, fail) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('API:')) done();
      });
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      child.once('exit', (code) =>
        fail(new Error(`service exited with ${code}: ${errors.trim().split('\n')[0] ?? ''}`)),
      );
    });
    const startupMs = round(performance.now() - began, 0);
    await sleep(1000);
    return { startupMs, idleRssMiB: rssMiB(child.pid!) };
  } finally {
    // A service that failed to start has exited already: its 'exit' would never come again.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

/** The build's code cache (server/cli/code-cache.ts), removed so that a start has to write it again. */
function removeCodeCache(): void {
  const dir = join(ROOT, 'dist', 'server');
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.v8cache'))) {
    rmSync(join(dir, file));
  }
}

/**
 * Before (tsx) and after (compiled), interleaved `runs` times on fresh data directories. The
 * compiled runs start from the code cache; the first start after a build, which writes it, is
 * measured on its own.
 */
export async function startupBeforeAfter(runs: number) {
  type Sample = { startupMs: number; idleRssMiB: number };
  const fresh = async (launcher: readonly string[]) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'jobdeck-bench-start-'));
    const sample = await startOnce(launcher, dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    return sample;
  };
  removeCodeCache();
  const compiledFirstStart = await fresh(LAUNCHERS.compiled);
  const samples: Record<keyof typeof LAUNCHERS, Sample[]> = { tsx: [], compiled: [] };
  for (let i = 0; i < runs; i += 1) {
    for (const name of ['tsx', 'compiled'] as const)
      samples[name].push(await fresh(LAUNCHERS[name]));
  }
  const figures = (name: keyof typeof samples) => ({
    startupMs: summary(samples[name].map((s) => s.startupMs)),
    idleRssMiB: summary(samples[name].map((s) => s.idleRssMiB)),
  });
  return { tsx: figures('tsx'), compiled: figures('compiled'), compiledFirstStart };
}
