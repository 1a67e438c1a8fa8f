import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..', '..');
// Under the checkout, so that the bundles' packages resolve from its node_modules.
const OUT_DIR = join(ROOT, 'dist', 'test-scripts');

const bundles = new Map<string, Promise<string>>();

/**
 * A script a test runs as a process of its own (a second client of a store, a writer of the
 * release before), bundled into one JavaScript file once per test process: `node --import tsx`
 * transpiled the store's modules again in every such process (2.7 CPU-s to open a store, against
 * 0.85 s bundled), and the store contract suite starts some thirty of them.
 */
export function bundledScript(entry: string): Promise<string> {
  let bundle = bundles.get(entry);
  if (!bundle) {
    bundle = writeBundle(entry);
    bundles.set(entry, bundle);
  }
  return bundle;
}

async function writeBundle(entry: string): Promise<string> {
  const { outputFiles } = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    write: false,
    logLevel: 'warning',
  });
  // Written aside, then renamed over the last one: files running at once, each from the same
  // sources, replace it whole, never a half-written file under a process that starts.
  const outfile = join(OUT_DIR, `${basename(entry, '.ts')}.mjs`);
  const aside = `${outfile}.${process.pid}-${threadId}`;
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(aside, outputFiles[0]!.contents);
  renameSync(aside, outfile);
  return outfile;
}
