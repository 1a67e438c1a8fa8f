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

export function createPool(url: string, size: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: size,
    types: typeParsers,
    application_name: 'jobdeck',
  });
  // An idle connection that the server closed (restart, failover) is dropped by the pool and the
  // next query opens another; without a listener the 'error' event would end the process.
  pool.on('error', () => {});
  return pool;
}
