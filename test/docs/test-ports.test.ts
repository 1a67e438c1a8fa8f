import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { E2E_DEFAULT_API_PORT } from '../../e2e/ports';
import { FREE_PORTS_FROM } from '../support/free-port';

const ROOT = join(import.meta.dirname, '..', '..');
const SHARED = 'test/support/free-port.ts';

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

// A port the kernel picks (listen on 0) is in its ephemeral range and reserved for nobody: a server
// restarted on it, or one whose port is read and closed before a process binds it, can lose it to
// another suite running beside (CI runs several). Every test server takes freePort's instead.
const PICKS_ITS_OWN = /\.listen\(\s*0\s*[,)]|listen\(\s*\{\s*port:\s*0\b/;

describe('test servers take their ports from the one freePort', () => {
  it(`no file under test/, e2e/ or bench/ but ${SHARED} listens on port 0`, () => {
    const files = ['test', 'e2e', 'bench'].flatMap(sourcesUnder);
    expect(files).toContain(SHARED);
    const pickers = files.filter(
      (file) => file !== SHARED && PICKS_ITS_OWN.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(pickers).toEqual([]);
  });
});

describe("the e2e services' fixed ports", () => {
  it('lie below every port freePort hands out: e2e runs beside the Vitest suites in CI', () => {
    // Three services (full, spec-only, full-2), an API and a console port each: the first + 0..5.
    const last = E2E_DEFAULT_API_PORT + 5;
    expect(last).toBeLessThan(FREE_PORTS_FROM);
  });
});
