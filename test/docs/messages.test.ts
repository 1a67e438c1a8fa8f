import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { formatPath } from '../../contract';

const api = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'api.md'), 'utf8');

it("docs/api.md writes a refusal's field as the service names it (`label[0]`, not `label.0`)", () => {
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
