import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { OPERATION_ROLES } from '../../contract';

const api = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'api.md'), 'utf8');

it("docs/api.md's table of roles is the one the service enforces (contract/roles.ts)", () => {
  const documented = [
    ...api.matchAll(/^\| `(\w+)` +\| `(\/v1\/client\/[^`]*)` +\| (\w+) +\|$/gm),
  ].map(([, method, path, role]) => `${method} ${path} ${role}`);
  expect(documented).toEqual(
    Object.entries(OPERATION_ROLES).map(([operation, role]) => `${operation} ${role}`),
  );
});
