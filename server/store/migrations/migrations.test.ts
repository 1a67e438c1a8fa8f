import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from './names';
import { postgresMigrations } from './postgres';
import { sqliteMigrations } from './sqlite';

const DIALECTS = [
  { dialect: 'sqlite', migrations: sqliteMigrations },
  { dialect: 'postgres', migrations: postgresMigrations },
];

it('numbers the one list of migrations in order, each `NNN-what` once', () => {
  expect([...MIGRATION_NAMES]).toEqual([...MIGRATION_NAMES].sort());
  expect(new Set(MIGRATION_NAMES).size).toBe(MIGRATION_NAMES.length);
  for (const name of MIGRATION_NAMES) expect(name).toMatch(/^\d{3}-[a-z-]+$/);
});

describe.each(DIALECTS)('the $dialect migrations', ({ dialect, migrations }) => {
  it('are exactly the files of its folder, one per name of the list', () => {
    const files = readdirSync(join(import.meta.dirname, dialect))
      .filter((file) => file !== 'index.ts')
      .sort();
    expect(files).toEqual(MIGRATION_NAMES.map((name) => `${name}.ts`));
  });

  it('run in the list’s order, each its own file’s', () => {
    expect(migrations.map((m) => m.name)).toEqual([...MIGRATION_NAMES]);
    const ups = new Set(migrations.map((m) => m.up));
    expect(ups.size).toBe(migrations.length);
  });
});
