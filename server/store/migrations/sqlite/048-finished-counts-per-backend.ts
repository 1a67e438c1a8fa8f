/**
 * PostgreSQL's 048 spreads a queue's finished counts over its writers' connections. SQLite has
 * one writer at a time: no two transactions wait on a count row, nothing to change.
 */
export async function up(): Promise<void> {}
