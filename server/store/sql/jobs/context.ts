import type { Kysely } from 'kysely';
import type { Database } from '../../schema';
import type { StoreDialect } from '../dialect';
import { hotQueries } from '../hot-queries';

/** What every job module works with: one Kysely instance, its dialect and the compiled queries. */
export interface JobTables {
  db: Kysely<Database>;
  dialect: StoreDialect;
  hot: ReturnType<typeof hotQueries>;
}

export function jobTables(db: Kysely<Database>, dialect: StoreDialect): JobTables {
  return { db, dialect, hot: hotQueries(db) };
}

/** Notes quote engine messages, which may hold anything the database's text cannot. */
export function storableNote(tables: JobTables, note: string | null): string | null {
  return note === null ? null : tables.dialect.storableText(note);
}
