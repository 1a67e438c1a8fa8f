import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { failpoint } from '../../jobs/failpoints';

/**
 * A migration's fill of rows that already exist, done after its schema change has committed, in
 * bounded batches of `table`'s rows by ranges of `key`, each batch a transaction of its own: writes
 * to the table wait for one batch at most, never for the whole fill. The store records how far it
 * got (`schema_backfills`), so a process killed halfway goes on from there at its next start.
 *
 * The schema change must keep the rows it has not filled yet right as writers change them (a
 * trigger, a default), and `fill` must leave a row that such a writer already made right as it is.
 */
export interface Backfill {
  /** Rows that already exist, filled in batches; none where only `finish` is needed. */
  rows?: RowFill;
  /**
   * What needs the rows filled first (the indexes over the new column), each step on a
   * connection outside any transaction (PostgreSQL builds an index without holding writes only
   * there), writers let through between them. The steps run again if the process is killed
   * before they are recorded as done: each must undo a half-made one of its own.
   */
  finish?: readonly ((db: Kysely<unknown>) => Promise<void>)[];
}

export interface RowFill {
  /** The table walked, and its integer key column (the first of its primary key). */
  table: string;
  key: string;
  /** Fills the rows whose key is in [from, to); null: no bound on that side. */
  fill(trx: Kysely<unknown>, from: number | null, to: number | null): Promise<void>;
}

/**
 * A batch's size is set from the last one's time, to take about `targetMs`: rows cost 10 µs each
 * on an idle machine and ten times that on a loaded one, and a writer that needs a row of the
 * batch (PostgreSQL) or the database's one write lock (SQLite) waits for the whole batch.
 */
export const BACKFILL_BATCHES = { firstRows: 2_000, minRows: 200, maxRows: 10_000, targetMs: 100 };

export async function createBackfillTable(db: Kysely<unknown>): Promise<void> {
  // next_key: where the next batch starts (null: at the first row); filled: every row is;
  // finished_at: `finish` too (milliseconds).
  await sql`CREATE TABLE IF NOT EXISTS schema_backfills (
    name TEXT PRIMARY KEY, next_key BIGINT, filled INTEGER NOT NULL, finished_at BIGINT)`.execute(
    db,
  );
}

/**
 * Called in the migration's own transaction: its fill is then owed, from the first row (again,
 * if a store's record of the migration was removed to apply it anew).
 */
export async function owe(trx: Kysely<unknown>, name: string): Promise<void> {
  await sql`INSERT INTO schema_backfills (name, next_key, filled, finished_at)
    VALUES (${name}, NULL, 0, NULL)
    ON CONFLICT (name) DO UPDATE SET next_key = NULL, filled = 0, finished_at = NULL`.execute(trx);
}

interface Progress {
  next_key: number | string | null;
  filled: number | string;
  finished_at: number | string | null;
}

/**
 * Runs what is left of the fill owed for `name` (nothing when none is: a store that applied the
 * migration before it had a fill). Each batch reads the progress again in its own transaction,
 * so two processes running it at once (SQLite, whose lock is each transaction's) share the
 * batches and fill no row twice; on PostgreSQL the migration lock already lets one at a time.
 */
export async function runBackfill(
  db: Kysely<unknown>,
  name: string,
  backfill: Backfill,
  pauseMs: number,
): Promise<void> {
  let rows = BACKFILL_BATCHES.firstRows;
  for (;;) {
    const began = performance.now();
    const state = await db.transaction().execute(async (trx) => {
      const row = await readProgress(trx, name);
      if (!row) return 'none';
      if (row.finished_at !== null) return 'finished';
      if (Number(row.filled) === 1) return 'filled';
      const from = row.next_key === null ? null : Number(row.next_key);
      const to = backfill.rows ? await batchEnd(trx, backfill.rows, from, rows) : null;
      await backfill.rows?.fill(trx, from, to);
      await sql`UPDATE schema_backfills SET next_key = ${to}, filled = ${to === null ? 1 : 0}
        WHERE name = ${name}`.execute(trx);
      return to === null ? 'filled' : 'filling';
    });
    if (state === 'none' || state === 'finished') return;
    if (state === 'filled') break;
    // A batch committed, the next not begun: the next start goes on from the one after it.
    failpoint(`backfill:${name}`);
    rows = nextBatchRows(rows, performance.now() - began);
    await sleep(pauseMs);
  }
  for (const [index, step] of (backfill.finish ?? []).entries()) {
    if (index > 0) await sleep(pauseMs);
    await step(db);
  }
  await sql`UPDATE schema_backfills SET finished_at = ${Date.now()}
    WHERE name = ${name} AND finished_at IS NULL`.execute(db);
}

function nextBatchRows(rows: number, tookMs: number): number {
  const { minRows, maxRows, targetMs } = BACKFILL_BATCHES;
  const scaled = Math.round((rows * targetMs) / Math.max(tookMs, 1));
  return Math.min(maxRows, Math.max(minRows, scaled));
}

async function readProgress(trx: Kysely<unknown>, name: string): Promise<Progress | undefined> {
  const { rows } = await sql<Progress>`SELECT next_key, filled, finished_at
    FROM schema_backfills WHERE name = ${name}`.execute(trx);
  return rows[0];
}

/** The key `batchRows` rows on from `from` (by the key's index), or null when fewer are left. */
async function batchEnd(
  trx: Kysely<unknown>,
  { table, key }: RowFill,
  from: number | null,
  batchRows: number,
): Promise<number | null> {
  const after = from === null ? sql`` : sql`WHERE ${sql.ref(key)} >= ${from}`;
  const { rows } = await sql<{ end: number | string }>`SELECT ${sql.ref(key)} AS "end"
    FROM ${sql.table(table)} ${after} ORDER BY ${sql.ref(key)} LIMIT 1 OFFSET ${batchRows}`.execute(
    trx,
  );
  if (rows[0] === undefined) return null;
  const end = Number(rows[0].end);
  // More rows than a batch share the key `from`: that key alone is the batch.
  return from !== null && end <= from ? from + 1 : end;
}
