import { createQueryId, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../schema';

/** Stands in for a value while the query is compiled; no stored text starts with a NUL. */
const PLACEHOLDER = '\u0000prepared:';

/** A value's place in a prepared query, typed as the value it stands for. */
export type Param<V> = <K extends keyof V & string>(name: K) => V[K];

export type PreparedQuery<V, R> = (executor: Kysely<Database>, values: V) => Promise<R[]>;

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
  const param = ((name: string) => `${PLACEHOLDER}${name}`) as Param<V>;
  const compiled = build(db, param).compile();
  // Each parameter is either one of the call's values, by name, or a constant of the query.
  const slots = compiled.parameters.map((value): { name: keyof V } | { constant: unknown } =>
    typeof value === 'string' && value.startsWith(PLACEHOLDER)
      ? { name: value.slice(PLACEHOLDER.length) as keyof V }
      : { constant: value },
  );
  return async (executor, values) => {
    const query: CompiledQuery<R> = {
      sql: compiled.sql,
      query: compiled.query,
      queryId: createQueryId(),
      parameters: slots.map((slot) => ('name' in slot ? values[slot.name] : slot.constant)),
    };
    return (await executor.executeQuery(query)).rows;
  };
}
