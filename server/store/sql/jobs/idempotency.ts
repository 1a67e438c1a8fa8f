import type { Kysely } from 'kysely';
import type { HeldKey, IdempotencyKey, NewJob } from '../../../jobs/model';
import type { PruneBatch } from '../../../jobs/ports';
import type { Database } from '../../schema';

/** A key is live in its project (or twice in one batch): the transaction is to be undone. */
export class IdempotencyKeyTaken extends Error {
  constructor(readonly project: string) {
    super('Idempotency-Key already held');
  }
}

/** A new job and the key it is stored under. */
export interface KeyedJob {
  job: NewJob;
  idempotency: IdempotencyKey;
}

/**
 * Stores the keys of these jobs inside `trx`, before the jobs themselves: a key that expired
 * is taken over in the same statement (the upsert's condition), and one that holds stops the
 * transaction (IdempotencyKeyTaken) before any job is written. On PostgreSQL a second
 * transaction with the same key waits on the first's row of the primary key and, once that one
 * committed, finds it held; on SQLite writes take turns anyway.
 */
export async function storeKeysWithin(
  trx: Kysely<Database>,
  keyed: readonly KeyedJob[],
): Promise<void> {
  if (keyed.length === 0) return;
  const rows = keyed.map(({ job, idempotency }) => ({
    project: job.project,
    idempotency_key: idempotency.key,
    request_digest: idempotency.digest,
    job_id: job.id,
    created_at: job.createdAt,
    expires_at: idempotency.expiresAt,
  }));
  const stored = await trx
    .insertInto('idempotency_keys')
    .values(rows)
    .onConflict((conflict) =>
      conflict
        .columns(['project', 'idempotency_key'])
        .doUpdateSet((eb) => ({
          request_digest: eb.ref('excluded.request_digest'),
          job_id: eb.ref('excluded.job_id'),
          created_at: eb.ref('excluded.created_at'),
          expires_at: eb.ref('excluded.expires_at'),
        }))
        .where((eb) => eb('idempotency_keys.expires_at', '<=', eb.ref('excluded.created_at'))),
    )
    .returning('idempotency_key')
    .execute();
  if (stored.length < rows.length) throw new IdempotencyKeyTaken(rows[0]!.project);
}

/** The row a key has in its project, expired or not; undefined when there is none. */
export async function keyRow(
  db: Kysely<Database>,
  project: string,
  key: string,
): Promise<(HeldKey & { expiresAt: number }) | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['job_id', 'request_digest', 'expires_at'])
    .where('project', '=', project)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row && { jobId: row.job_id, digest: row.request_digest, expiresAt: row.expires_at };
}

/** The job a key made, while the key holds. */
export async function heldKey(
  db: Kysely<Database>,
  project: string,
  key: string,
  now: number,
): Promise<HeldKey | undefined> {
  const row = await keyRow(db, project, key);
  return row && row.expiresAt > now ? { jobId: row.jobId, digest: row.digest } : undefined;
}

/** Up to `limit` keys that expired before `before`, the earliest first; how many went. */
export async function pruneExpiredKeys(
  db: Kysely<Database>,
  { before, limit }: PruneBatch,
): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where((eb) =>
      eb(
        eb.refTuple('project', 'idempotency_key'),
        'in',
        eb
          .selectFrom('idempotency_keys')
          .select(['project', 'idempotency_key'])
          .where('expires_at', '<', before)
          .orderBy('expires_at')
          .limit(limit)
          .$asTuple('project', 'idempotency_key'),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
