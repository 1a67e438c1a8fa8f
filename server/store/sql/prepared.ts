import { createQueryId, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../schema';

/** Stands in for a value while the query is compiled; no stored text starts with a NUL. */
const PLACEHOLDER = '\u0000prepared:';

/** A value's place in a prepared query, typed as the value it stands for. */
export type Param<V> = <K extends keyof V & string>(name: K) => V[K];

export type PreparedQuery<V, R> = (executor: Kysely<Database>, values: V) => Promise<R[]>;
export type PreparedRows<V, R> = (executor: Kysely<Database>, rows: readonly V[]) => Promise<R[]>;

/** The most rows one statement of `preparedRows` takes. */
const MAX_ROWS_PER_STATEMENT = 64;

/**
 * The texts of every query compiled once, in this process: a driver that can keep a statement
 * parsed and planned on its connection (PostgreSQL's named statements) does so for these, and
 * only these, since their number is bounded and each is run again and again.
 */
const compiledTexts = new Set<string>();

export const isCompiledOnce = (text: string) => compiledTexts.has(text);

/** For a statement written as SQL text rather than built by Kysely, run as often. */
export function markCompiledOnce(text: string): void {
  compiledTexts.add(text);
}

/** The placeholder of row `row`'s values. */
const paramOf = <V>(row: number) => ((name: string) => `${PLACEHOLDER}${row}:${name}`) as Param<V>;

/** A row of placeholders for `columns`, as a query's values take it. */
export const placeholders = <V>(param: Param<V>, columns: readonly (keyof V & string)[]) =>
  Object.fromEntries(columns.map((column) => [column, param(column)])) as V;

/** Compiles once; each call's rows then fill the parameters, by row and by name. */
function compileOnce<V, R>(query: Compilable<R>): (rows: readonly V[]) => CompiledQuery<R> {
  const compiled = query.compile();
  markCompiledOnce(compiled.sql);
  // Each parameter is either a value of one of the call's rows, or a constant of the query.
  const slots = compiled.parameters.map(
    (value): { row: number; name: keyof V } | { constant: unknown } => {
      if (typeof value !== 'string' || !value.startsWith(PLACEHOLDER)) return { constant: value };
      const place = value.slice(PLACEHOLDER.length);
      const colon = place.indexOf(':');
      return { row: Number(place.slice(0, colon)), name: place.slice(colon + 1) as keyof V };
    },
  );
  return (rows) => ({
    sql: compiled.sql,
    query: compiled.query,
    queryId: createQueryId(),
    parameters: slots.map((slot) => ('name' in slot ? rows[slot.row]![slot.name] : slot.constant)),
  });
}

/**
 * A query Kysely builds and compiles once, then runs with each call's values: building and
 * compiling a query anew on every request was a fifth of Job Submit's CPU (--cpu-prof). The
 * query's shape must not depend on the values: no `in` list whose length varies, no optional
 * column. `executor` is the store's Kysely or a transaction of it.
 */
export function prepared<V, R>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, param: Param<V>) => Compilable<R>,
): PreparedQuery<V, R> {
  const toQuery = compileOnce<V, R>(build(db, paramOf<V>(0)));
  return async (executor, values) => (await executor.executeQuery(toQuery([values]))).rows;
}

/**
 * A statement over many rows at once (a multi-row INSERT), prepared as `prepared` is, once per
 * row count. Rows go in chunks of a power of two up to MAX_ROWS_PER_STATEMENT, so at most seven
 * shapes are ever compiled (and cached by the driver) however the batches vary.
 */
export function preparedRows<V, R>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, rows: Param<V>[]) => Compilable<R>,
): PreparedRows<V, R> {
  const bySize = new Map<number, (rows: readonly V[]) => CompiledQuery<R>>();
  const queryFor = (size: number) => {
    let toQuery = bySize.get(size);
    if (!toQuery) {
      toQuery = compileOnce<V, R>(
        build(
          db,
          Array.from({ length: size }, (_, i) => paramOf<V>(i)),
        ),
      );
      bySize.set(size, toQuery);
    }
    return toQuery;
  };
  return async (executor, rows) => {
    const results: R[] = [];
    for (let start = 0; start < rows.length;) {
      const size = chunkSize(rows.length - start);
      const chunk = rows.slice(start, start + size);
      results.push(...(await executor.executeQuery(queryFor(size)(chunk))).rows);
      start += size;
    }
    return results;
  };
}

/** The largest power of two that is at most `left` and MAX_ROWS_PER_STATEMENT. */
function chunkSize(left: number): number {
  let size = 1;
  while (size * 2 <= Math.min(left, MAX_ROWS_PER_STATEMENT)) size *= 2;
  return size;
}
