/**
 * `npm run build`: the console (Vite) into dist/console, the service (esbuild) into dist/server
 * and the client verbs (esbuild) into dist/client, each skipped with `--if-changed` when the hash of its sources matches the one
 * recorded by its last build, so `npm start` costs a build only after an edit.
 *
 * Why esbuild rather than tsc's emit: the sources import without extensions (`./config/load`,
 * moduleResolution "Bundler"), which Node's ESM loader cannot resolve, and one bundled file loads
 * faster than hundreds of small modules. tsc stays the type checker (`npm run typecheck`).
 *
 * Usage: tsx scripts/build.ts [--if-changed] [--only console|service|client]
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
import { join, relative, resolve } from 'node:path';
import { build as bundle, type Plugin } from 'esbuild';
import { precompress } from './precompress';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');

interface Target {
  name: 'console' | 'service' | 'client';
  /** Files and folders whose content decides whether the output is current. */
  inputs: string[];
  outDir: string;
  build(): Promise<void>;
}

/**
 * Modules that the bundle would carry but Jobdeck never runs, each replaced by one that throws
 * if called, because every byte of the bundle is parsed at start-up (V8 compiling the modules
 * was a third of it):
 * - dockerode's BuildKit gRPC session and protobuf decoder, its tar packer and .dockerignore
 *   reader (image builds), and docker-modem's SSH client (ssh:// engines): Jobdeck builds no
 *   image and reaches engines by socket or TCP;
 * - prom-client's OpenTelemetry API, read only for exemplars, which Jobdeck does not enable;
 * - Fastify's Ajv and fast-json-stringify compilers: no route has a JSON schema (ZOD_ONLY in
 *   server/http/parse.ts);
 * - zod's 40 other languages for its messages: Jobdeck writes its own, in English (zod's English
 *   stays, its default).
 */
const UNUSED: { module: RegExp; importer: RegExp; contents?: string }[] = [
  { module: /^\.\/(session|buildkit)$/, importer: /[\\/]dockerode[\\/]/ },
  { module: /^ssh2$/, importer: /[\\/]docker-modem[\\/]/ },
  { module: /^(tar-fs|@balena\/dockerignore)$/, importer: /[\\/]dockerode[\\/]/ },
  { module: /^@opentelemetry\/api$/, importer: /[\\/]prom-client[\\/]/ },
  {
    module: /^@fastify\/(ajv-compiler|fast-json-stringify-compiler)$/,
    importer: /[\\/]fastify[\\/]/,
  },
  {
    module: /^\.\.\/locales\/index\.js$/,
    importer: /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/,
    contents: "export { default as en } from 'zod/v4/locales/en.js';",
  },
];

const leaveOutUnused: Plugin = {
  name: 'leave-out-unused',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      const index = UNUSED.findIndex(
        ({ module, importer }) => module.test(args.path) && importer.test(args.importer),
      );
      return index < 0 ? undefined : { path: String(index), namespace: 'unused' };
    });
    build.onLoad({ filter: /.*/, namespace: 'unused' }, (args) => {
      const unused = UNUSED[Number(args.path)]!;
      if (unused.contents) return { contents: unused.contents, resolveDir: ROOT };
      const message = `${unused.module.source}: left out of the bundle (scripts/build.ts)`;
      const thrower = `function unused() { throw new Error(${JSON.stringify(message)}); }`;
      return { contents: `module.exports = ${thrower}; module.exports.Client = module.exports;` };
    });
  },
};

const serviceOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
} as const;

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
      'scripts/precompress.ts',
    ],
    outDir: join(DIST, 'console'),
    async build() {
      // Vite is only needed to build: imported here so a service-only build never loads it.
      // Always the production bundle: run from a test (vitest sets NODE_ENV=test), Vite would
      // otherwise build React's development runtime into the console people are served.
      process.env.NODE_ENV = 'production';
      const { build } = await import('vite');
      await build({ root: ROOT, mode: 'production', logLevel: 'warn' }); // into dist/console
      precompress(this.outDir);
    },
  },
  {
    name: 'service',
    inputs: [...shared, 'server'],
    outDir: join(DIST, 'server'),
    async build() {
      rmSync(this.outDir, { recursive: true, force: true });
      const bundleFile = join(this.outDir, 'jobdeck.cjs');
      await bundle({
        ...serviceOptions,
        entryPoints: [join(ROOT, 'server', 'cli', 'main.ts')],
        outfile: bundleFile,
        // Dependencies are bundled too: resolving and reading some 800 files took a third of
        // start-up. Left outside: better-sqlite3 (native), pino-pretty (loaded for a terminal
        // only) and vite (`jobdeck dev` only, a devDependency).
        external: ['better-sqlite3', 'pino-pretty', 'vite'],
        plugins: [leaveOutUnused],
        // CommonJS, one file: the only form V8's code cache takes (server/cli/code-cache.ts).
        // Modules imported with import() are still evaluated only when first imported.
        format: 'cjs',
        // import() of what is left outside becomes require(): Node 20 runs import() in a
        // vm.Script only behind --experimental-vm-modules. Node ≥ 20.19 requires ES modules.
        supported: { 'dynamic-import': false },
        define: {
          'import.meta.dirname': '__dirname',
          'import.meta.url': '__jobdeckModuleUrl',
        },
        banner: {
          js: "const __jobdeckModuleUrl = require('node:url').pathToFileURL(__filename).href;",
        },
        // Whitespace and syntax only, names kept so that a logged stack trace still reads: a
        // smaller bundle, and a lower idle RSS.
        minifyWhitespace: true,
        minifySyntax: true,
      });
      const bundleHash = createHash('sha256')
        .update(readFileSync(bundleFile))
        .digest('hex')
        .slice(0, 16);
      await bundle({
        ...serviceOptions,
        entryPoints: [join(ROOT, 'server', 'cli', 'launch.ts')],
        outfile: join(this.outDir, 'cli.js'),
        format: 'esm',
        define: { JOBDECK_BUNDLE_HASH: JSON.stringify(bundleHash) },
      });
    },
  },
  {
    name: 'client',
    inputs: [...shared, 'client'],
    outDir: join(DIST, 'client'),
    async build() {
      rmSync(this.outDir, { recursive: true, force: true });
      // The client verbs' own bundle: none of the service's code, so a verb starts fast.
      await bundle({
        ...serviceOptions,
        entryPoints: [join(ROOT, 'client', 'cli', 'main.ts')],
        outfile: join(this.outDir, 'cli.js'),
        format: 'esm',
        // commander is CommonJS and requires Node's modules, which an ES module has no require for.
        banner: {
          js: "import { createRequire as __jobdeckRequire } from 'node:module'; const require = __jobdeckRequire(import.meta.url);",
        },
        minifyWhitespace: true,
        minifySyntax: true,
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
