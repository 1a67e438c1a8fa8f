import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { formatPath } from '../../contract';

const DOCS = join(import.meta.dirname, '..', '..', 'docs');
const GUIDES = join(DOCS, 'guides');
// The reference and every guide quote refusals: all of them are read as one text.
const api = [
  join(DOCS, 'api.md'),
  ...readdirSync(GUIDES)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(GUIDES, name)),
]
  .map((page) => readFileSync(page, 'utf8'))
  .join('\n');

it("docs/api.md and its guides write a refusal's field as the service names it (`label[0]`, not `label.0`)", () => {
  const quotedFields = [...api.matchAll(/`([a-z_][\w.[\]]*): [^`]+`/g)].map(([, field]) => field!);
  expect(quotedFields.length).toBeGreaterThan(10);
  const asTheServiceWritesThem = quotedFields.map((field) =>
    formatPath(
      field
        .split(/\.|\[|\]\.?/)
        .filter(Boolean)
        .map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
    ),
  );
  expect(quotedFields).toEqual(asTheServiceWritesThem);
});
