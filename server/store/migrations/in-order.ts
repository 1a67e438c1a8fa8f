import type { Kysely } from 'kysely';
import type { Backfill } from '../sql/backfill';
import type { Migration } from '../sql/migrate';
import { MIGRATION_NAMES, type MigrationName } from './names';

/**
 * A dialect's migrations in the one order of names.ts: the type asks for a module for each name
 * and no other, so a dialect cannot miss a migration nor add one of its own.
 */
export function inOrder(
  modules: Record<
    MigrationName,
    { up(db: Kysely<unknown>): Promise<void>; batchedBackfill?: Backfill }
  >,
): readonly Migration[] {
  return MIGRATION_NAMES.map((name) => ({
    name,
    up: modules[name].up,
    backfill: modules[name].batchedBackfill,
  }));
}
