import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Module, createRequire } from 'node:module';
import { dirname } from 'node:path';
import vm from 'node:vm';

/** The launcher and the bundle it runs are two module graphs: they meet on this one global. */
const SAVE = '__jobdeckSaveCodeCache';
type Globals = Record<typeof SAVE, (() => void) | undefined>;
type CommonJsWrapper = (...args: unknown[]) => void;

/**
 * Runs a CommonJS bundle through V8's code cache. Node 20 has no compile cache of its own and
 * takes no cached data for ES modules, so without this every start parses and compiles the
 * bundle again. The cache is written by the service itself once it has started
 * (`saveCodeCache`), so it holds what a start compiles, not just the modules' top level. Where it
 * cannot be written (a read-only install), every start compiles, as without it.
 *
 * `cacheFile` must name this bundle's content: V8 checks a cache against its own version and
 * flags, but against the source only by its length.
 */
export function runWithCodeCache(bundle: string, cacheFile: string): { cacheAccepted: boolean } {
  const cachedData = readIfPresent(cacheFile);
  const script = new vm.Script(Module.wrap(readFileSync(bundle, 'utf8')), {
    filename: bundle,
    cachedData,
  });
  const cacheAccepted = cachedData !== undefined && !script.cachedDataRejected;
  (globalThis as unknown as Globals)[SAVE] = cacheAccepted
    ? undefined
    : () => writeAtomically(cacheFile, () => script.createCachedData());
  const module = { exports: {} };
  const run = script.runInThisContext() as CommonJsWrapper;
  run.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { cacheAccepted };
}

/** Once the service is up; a no-op when the cache was used, and when run from the sources. */
export function saveCodeCache(): void {
  const globals = globalThis as unknown as Globals;
  const save = globals[SAVE];
  globals[SAVE] = undefined;
  save?.();
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Renamed into place, so that instances starting together never read half a cache. */
function writeAtomically(file: string, content: () => Buffer): void {
  const partial = `${file}.${process.pid}`;
  try {
    writeFileSync(partial, content());
    renameSync(partial, file);
  } catch {
    // Not writable (an install owned by another user): starts go on compiling the bundle.
    rmSync(partial, { force: true });
  }
}
