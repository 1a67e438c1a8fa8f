import { createHash } from 'node:crypto';
import pg from 'pg';
import { isCompiledOnce } from '../sql/prepared';

/**
 * Times and sequence numbers are `bigint` columns, which pg returns as strings by default. Every
 * value Jobdeck stores there (milliseconds, counts, seq) is far below 2^53, so a JS number holds
 * it exactly; anything larger is refused rather than rounded.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`bigint ${text} is beyond the integers a JS number holds exactly`);
  }
  return value;
}

// Per pool, not pg.types.setTypeParser: the process-wide parsers stay as pg ships them.
const typeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? parseInt8
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Far beyond any of Jobdeck's transactions (milliseconds), short beside the instance timeout. */
const IDLE_IN_TRANSACTION_MS = 5_000;
/** How long opening a connection (or waiting for a free one) may take before it fails. */
const CONNECT_TIMEOUT_MS = 10_000;

/** A DDL that changes a kept statement's result (a column added to `select *`'s table). */
const isStalePlan = (error: unknown) =>
  error instanceof pg.DatabaseError &&
  error.code === '0A000' &&
  error.message.includes('cached plan must not change result type');

const baseName = (text: string) =>
  `jobdeck_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;

/**
 * The hot paths' queries (compiled once, see sql/prepared.ts) go as named statements: each
 * connection parses and plans one once and then only binds it, where an unnamed statement is
 * parsed and planned again on every run. Every other query goes unnamed, so the statements a
 * connection keeps stay few. Their plans are by key or of a fixed shape, so a generic plan,
 * which PostgreSQL may choose after a few runs, is the plan a fresh one would be. A migration
 * run meanwhile by another instance can change a kept statement's result: it is then prepared
 * again under a new name and run once more (inside a transaction, that transaction fails).
 */
function nameHotStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  const names = new Map<string, string>();
  const named = async (text: string, values: unknown[]) => {
    const name = names.get(text) ?? baseName(text);
    names.set(text, name);
    try {
      return await query({ name, text, values });
    } catch (error) {
      if (!isStalePlan(error)) throw error;
      const renamed = `${baseName(text)}_${Date.now().toString(36)}`;
      names.set(text, renamed);
      return query({ name: renamed, text, values });
    }
  };
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values)) {
      if (isCompiledOnce(text)) return named(text, values);
    }
    return query(...args);
  }) as typeof client.query;
}

export function createPool(url: string, size: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: size,
    types: typeParsers,
    application_name: 'jobdeck',
    // An instance frozen inside a transaction (a paused VM, SIGSTOP) would hold the claim lock
    // and its rows forever, and no survivor could claim or take over; the server ends such a
    // session instead. Jobdeck's own transactions never wait on anything but the database.
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    // pg waits forever by default: a database that drops packets would hang the start silently.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An idle connection that the server closed (restart, failover) is dropped by the pool and the
  // next query opens another; without a listener the 'error' event would end the process.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    // The pool listens only to idle connections. One checked out when the server ends it (a
    // frozen instance's transaction past the timeout above) would end the process the same way:
    // its query fails instead, and the pool drops it on release.
    client.on('error', () => {});
    nameHotStatements(client);
  });
  return pool;
}
