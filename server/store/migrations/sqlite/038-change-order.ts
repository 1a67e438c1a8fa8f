/**
 * PostgreSQL's 038 makes a change's seq wait for its transaction's number. SQLite has one writer
 * at a time, whose seqs are committed before the next writer takes one: nothing to change.
 */
export async function up(): Promise<void> {}
