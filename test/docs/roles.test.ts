import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { OPERATION_ROLES } from '../../contract';

const guide = readFileSync(
  join(import.meta.dirname, '..', '..', 'docs', 'guides', 'roles-and-sign-in.md'),
  'utf8',
);

it("docs/guides/roles-and-sign-in.md's table of roles is the one the service enforces (contract/roles.ts)", () => {
  const documented = [
    ...guide.matchAll(/^\| `(\w+)` +\| `(\/v1\/client\/[^`]*)` +\| (\w+) +\|$/gm),
  ].map(([, method, path, role]) => `${method} ${path} ${role}`);
  expect(documented).toEqual(
    Object.entries(OPERATION_ROLES).map(([operation, role]) => `${operation} ${role}`),
  );
});
