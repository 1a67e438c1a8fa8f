import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const PAGES = [
  'README.md',
  'ARCHITECTURE.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  ...['docs', 'docs/guides'].flatMap((folder) =>
    readdirSync(join(ROOT, folder))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `${folder}/${name}`),
  ),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchorsIn(page: string): Set<string> {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#+ (.*)$/gm)].map((match) => anchorOf(match[1]!)));
}

function linksIn(page: string): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

// The docs are read from a checkout or an installed package, often offline: every link stays
// inside the repository, and a page moved or a heading renamed must not leave a dead link.
describe.each(PAGES)('%s', (page) => {
  it('links only to files and headings that exist in the repository', () => {
    const broken = linksIn(page).filter((link) => {
      if (/^[a-z]+:/i.test(link)) return true;
      const [path, anchor] = link.split('#');
      const target = path ? normalize(join(dirname(page), path)) : page;
      if (!existsSync(join(ROOT, target))) return true;
      return anchor !== undefined && target.endsWith('.md') && !anchorsIn(target).has(anchor);
    });
    expect(broken).toEqual([]);
  });
});
