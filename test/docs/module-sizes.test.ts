import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const MAX_LINES = 400;
// Generated from the OpenAPI document (npm run generate:client), read by no one line by line.
const GENERATED = new Set(['client/src/api-types.ts']);

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name),
    )
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((file) => !GENERATED.has(file));
}

describe('the modules of the console, the contract, the client and the service', () => {
  it(`are each at most ${MAX_LINES} lines, so that each can be read in one sitting`, () => {
    const files = ['src', 'contract', 'client', 'server'].flatMap(sourcesUnder);
    expect(files.length).toBeGreaterThan(300);
    const long = files
      .map((file) => ({
        file,
        lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1,
      }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
