import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runWithCodeCache, saveCodeCache } from './code-cache';

type Probe = { __codeCacheProbe?: string[] };
const probe = globalThis as Probe;

/** A CommonJS bundle that records each run, through the require and module it is given. */
function bundleIn(dir: string): string {
  const file = join(dir, 'bundle.cjs');
  const body = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i}; }`);
  writeFileSync(
    file,
    `${body.join('\n')}
const { sep } = require('node:path');
module.exports = f199(1);
(globalThis.__codeCacheProbe ??= []).push(sep + ':' + module.exports + ':' + __filename);`,
  );
  return file;
}

afterEach(() => {
  delete probe.__codeCacheProbe;
  saveCodeCache(); // leaves no save offered to the next test
});

describe('runWithCodeCache', () => {
  it('compiles the first time, writes the cache when asked, and runs from it after', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobdeck-code-cache-'));
    const bundle = bundleIn(dir);
    const cache = join(dir, 'bundle.v8cache');

    expect(runWithCodeCache(bundle, cache)).toEqual({ cacheAccepted: false });
    expect(existsSync(cache)).toBe(false);
    saveCodeCache();
    expect(existsSync(cache)).toBe(true);

    expect(runWithCodeCache(bundle, cache)).toEqual({ cacheAccepted: true });
    expect(probe.__codeCacheProbe).toEqual([`/:199:${bundle}`, `/:199:${bundle}`]);
    expect(readdirSync(dir).sort()).toEqual(['bundle.cjs', 'bundle.v8cache']);
  });

  it('runs the bundle when the cache is not V8’s, and replaces it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobdeck-code-cache-'));
    const bundle = bundleIn(dir);
    const cache = join(dir, 'bundle.v8cache');
    writeFileSync(cache, Buffer.alloc(4096, 7));

    expect(runWithCodeCache(bundle, cache)).toEqual({ cacheAccepted: false });
    expect(probe.__codeCacheProbe).toHaveLength(1);
    saveCodeCache();
    expect(runWithCodeCache(bundle, cache)).toEqual({ cacheAccepted: true });
  });

  it('starts without a cache where none can be written, and leaves nothing behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobdeck-code-cache-'));
    const bundle = bundleIn(dir);
    const cache = join(dir, 'missing-folder', 'bundle.v8cache');

    expect(runWithCodeCache(bundle, cache)).toEqual({ cacheAccepted: false });
    expect(() => saveCodeCache()).not.toThrow();
    expect(readdirSync(dir)).toEqual(['bundle.cjs']);
    expect(runWithCodeCache(bundle, cache)).toEqual({ cacheAccepted: false });
    expect(probe.__codeCacheProbe).toHaveLength(2);
  });

  it('saves once a start, and not at all after a start that used the cache', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobdeck-code-cache-'));
    const bundle = bundleIn(dir);
    const cache = join(dir, 'bundle.v8cache');

    runWithCodeCache(bundle, cache);
    saveCodeCache();
    const written = readFileSync(cache);
    writeFileSync(cache, 'not written again');
    saveCodeCache();
    expect(readFileSync(cache, 'utf8')).toBe('not written again');

    writeFileSync(cache, written);
    expect(runWithCodeCache(bundle, cache)).toEqual({ cacheAccepted: true });
    rmSync(cache);
    saveCodeCache();
    expect(existsSync(cache)).toBe(false);
  });
});
