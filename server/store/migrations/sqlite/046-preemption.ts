import { sql, type Kysely } from 'kysely';

/**
 * Preemption (docs/guides/quotas.md, "Reclaim"): a running job asked to stop so that a lender
 * takes back its quota (when, and why in words), and how many of its attempts were preempted,
 * which count against none of its retries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE jobs ADD COLUMN preempt_requested_at integer`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN preempt_reason text`.execute(db);
  await sql`ALTER TABLE jobs ADD COLUMN preemptions integer NOT NULL DEFAULT 0`.execute(db);
}
