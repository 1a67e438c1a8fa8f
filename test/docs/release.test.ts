import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const version = (JSON.parse(read('package.json')) as { version: string }).version;

// What an operator reads must name the version they install: package.json, the lock, the
// CHANGELOG's latest release and every tarball the docs tell them to install move together.
describe(`release ${version}`, () => {
  it('is a semantic version, and the lock file says the same', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const lock = JSON.parse(read('package-lock.json')) as {
      version: string;
      packages: Record<string, { version?: string }>;
    };
    expect([lock.version, lock.packages['']?.version]).toEqual([version, version]);
  });

  it("is the CHANGELOG's latest release, dated, above the ones before it", () => {
    const changelog = read('CHANGELOG.md');
    // Changes not released yet carry no version: it would disagree with package.json.
    expect(changelog).not.toMatch(/^## \[Unreleased\] — /m);
    const releases = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] — (\S+)$/gm)];
    expect(releases[0]?.[1]).toBe(version);
    for (const [, , date] of releases) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const numbers = releases.map(([, v]) => v!.split('.').map(Number));
    const ordered = [...numbers].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]! || b[2]! - a[2]!);
    expect(numbers).toEqual(ordered);
  });

  it('is the tarball every document tells an operator to install', () => {
    const pages = [
      'README.md',
      ...['docs', 'docs/guides'].flatMap((folder) =>
        readdirSync(join(ROOT, folder)).map((f) => `${folder}/${f}`),
      ),
    ];
    const named = pages
      .filter((page) => page.endsWith('.md'))
      .flatMap((page) =>
        [...read(page).matchAll(/jobdeck-(\d+\.\d+\.\d+)\.tgz/g)].map((m) => m[1]),
      );
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set([version]));
  });
});
