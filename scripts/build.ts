/**
 * `npm run build`: the console (Vite) into dist/console and the service (esbuild) into
 * dist/server, each skipped with `--if-changed` when the hash of its sources matches the one
 * recorded by its last build, so `npm start` costs a build only after an edit.
 *
 * Why esbuild rather than tsc's emit: the sources import without extensions (`./config/load`,
 * moduleResolution "Bundler"), which Node's ESM loader cannot resolve, and one bundled file loads
 * faster than hundreds of small modules. tsc stays the type checker (`npm run typecheck`).
 *
 * Usage: tsx scripts/build.ts [--if-changed] [--only console|service]
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { build as bundle, type Plugin } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');

interface Target {
  name: 'console' | 'service';
  /** Files and folders whose content decides whether the output is current. */
  inputs: string[];
  outDir: string;
  build(): Promise<void>;
}

/**
 * dockerode carries BuildKit's gRPC session and protobuf decoder (for image builds) and
 * docker-modem an SSH client (for ssh:// engines): 120 ms of start-up for code Jobdeck never
 * calls, since it builds no image and reaches engines by socket or plain TCP. Each becomes a
 * module that says so.
 */
const unusedEngineClientParts: Plugin = {
  name: 'unused-engine-client-parts',
  setup(build) {
    build.onResolve({ filter: /^(\.\/session|\.\/buildkit|ssh2)$/ }, (args) =>
      args.path === 'ssh2' || args.importer.includes(`${sep}dockerode${sep}`)
        ? { path: args.path, namespace: 'unused' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'unused' }, (args) => {
      const message = `${args.path}: not bundled (Jobdeck builds no image and uses no ssh:// engine)`;
      const unused = `function unused() { throw new Error(${JSON.stringify(message)}); }`;
      return { contents: `module.exports = ${unused}; module.exports.Client = module.exports;` };
    });
  },
};

const shared = ['contract', 'package-lock.json', 'package.json', 'scripts/build.ts'];

const targets: Target[] = [
  {
    name: 'console',
    inputs: [
      ...shared,
      'src',
      'public',
      'index.html',
      'vite.config.ts',
      'server/http/console-guard.ts',
    ],
    outDir: join(DIST, 'console'),
    async build() {
      // Vite is only needed to build: imported here so a service-only build never loads it.
      // Always the production bundle: run from a test (vitest sets NODE_ENV=test), Vite would
      // otherwise build React's development runtime into the console people are served.
      process.env.NODE_ENV = 'production';
      const { build } = await import('vite');
      await build({ root: ROOT, mode: 'production', logLevel: 'warn' }); // into dist/console
    },
  },
  {
    name: 'service',
    inputs: [...shared, 'server'],
    outDir: join(DIST, 'server'),
    async build() {
      rmSync(this.outDir, { recursive: true, force: true });
      await bundle({
        entryPoints: [join(ROOT, 'server', 'cli.ts')],
        outdir: this.outDir,
        bundle: true,
        // Dependencies are bundled too: resolving and reading some 800 files took a third of
        // start-up. Left outside: better-sqlite3 (native), pino-pretty (loaded for a terminal
        // only) and vite (`jobdeck dev` only, a devDependency).
        external: ['better-sqlite3', 'pino-pretty', 'vite', 'cpu-features'],
        plugins: [unusedEngineClientParts],
        // Bundled CommonJS calls require(): give the ESM output one.
        banner: {
          js: "import { createRequire as __jobdeckRequire } from 'node:module'; const require = __jobdeckRequire(import.meta.url);",
        },
        platform: 'node',
        format: 'esm',
        target: 'node20',
        splitting: true,
        logLevel: 'warning',
      });
    },
  },
];

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return [path];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** One hash over the paths and contents of every input file, in a stable order. */
function sourceHash(target: Target): string {
  const hash = createHash('sha256');
  const files = target.inputs
    .flatMap((input) => filesUnder(join(ROOT, input)))
    .filter((file) => !/\.test\.tsx?$/.test(file))
    .sort();
  for (const file of files) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const stampOf = (target: Target) => join(DIST, `.${target.name}.sha256`);

async function main() {
  const args = process.argv.slice(2);
  const ifChanged = args.includes('--if-changed');
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  mkdirSync(DIST, { recursive: true });
  for (const target of targets.filter((t) => only === undefined || t.name === only)) {
    const hash = sourceHash(target);
    const stamp = stampOf(target);
    if (ifChanged && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) continue;
    const began = performance.now();
    await target.build();
    writeFileSync(stamp, hash);
    process.stderr.write(
      `built the ${target.name} into ${relative(ROOT, target.outDir)} in ${Math.round(performance.now() - began)} ms\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`build failed: ${(error as Error).message}\n`);
  process.exit(1);
});
