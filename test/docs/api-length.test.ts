import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const API_PAGE = join(import.meta.dirname, '..', '..', 'docs', 'api.md');
const MAX_LINES = 499;

// The reference restates the specification and lists the extensions; an extension's detail
// belongs in its guide (docs/guides/), or the page grows back into one nobody reads through.
describe('docs/api.md', () => {
  it(`is at most ${MAX_LINES} lines: detail goes into the guides`, () => {
    const lines = readFileSync(API_PAGE, 'utf8').split('\n').length - 1;
    expect(lines).toBeLessThanOrEqual(MAX_LINES);
  });
});
