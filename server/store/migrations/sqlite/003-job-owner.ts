import type { Kysely } from 'kysely';

/** The instance that claimed a job, so that several instances can share one store later. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('owner', 'text').execute();
}
