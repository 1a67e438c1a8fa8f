import { sql, type Kysely } from 'kysely';

/**
 * Leases: one row per name (`dispatcher`: the one instance that claims jobs for all), its holder,
 * an epoch raised at every change of holder (what a holder's claims are fenced by) and when it
 * lapses unless renewed. Taken and renewed by compare-and-set (sql/leases/acquire.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE leases (
    name text PRIMARY KEY,
    holder text NOT NULL,
    epoch integer NOT NULL,
    expires_at bigint NOT NULL
  )`.execute(db);
}
