import pg from 'pg';

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
  return pool;
}
