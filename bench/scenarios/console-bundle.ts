import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIST = resolve(import.meta.dirname, '..', '..', 'dist', 'console');

/** Gzipped bytes of what the first page load fetches: the entry script, its preloads and CSS. */
export function initialBundleSize() {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  const size = (ext: string) =>
    assets
      .filter((a) => a.endsWith(ext))
      .reduce((sum, a) => sum + gzipSync(readFileSync(join(DIST, a))).length, 0);
  return {
    jsGzipKiB: Math.round(size('.js') / 102.4) / 10,
    cssGzipKiB: Math.round(size('.css') / 102.4) / 10,
  };
}
