import { round } from './stats';

type Query = (text: string, values?: unknown[]) => Promise<Record<string, string | null>[]>;

/** Preloaded in the bench's cluster so that each statement the instances run is counted. */
export const STATEMENT_COUNTING = [
  'shared_preload_libraries=pg_stat_statements',
  // What the instances send (not what triggers run), BEGIN and COMMIT included (utility).
  'pg_stat_statements.track=top',
  'pg_stat_statements.max=10000',
];

/**
 * What each statement the instances ran is, by its text: the kinds issue 48 asks to count a job.
 * The first that matches names it; the rest is "other".
 */
const KINDS: [kind: string, pattern: RegExp][] = [
  ['transaction (BEGIN)', /^\s*begin/i],
  ['transaction end (COMMIT / ROLLBACK)', /^\s*(commit|rollback)/i],
  ['savepoint', /savepoint/i],
  ['advisory lock', /pg_(try_)?advisory/i],
  ['NOTIFY / LISTEN', /^\s*(notify|listen|unlisten)|pg_notify/i],
  ['change feed (events)', /from\s+"?(job_)?events"?|txid|pg_snapshot|pg_current_xact|xmin/i],
  ['instances (heartbeats)', /"?instances"?/i],
  ['leases (dispatcher lease)', /"?leases"?/i],
  ['usage samples', /usage/i],
  ['share ledger', /share_use|share_ledger/i],
  ['job transitions', /insert\s+into\s+"?job_transitions"?/i],
  ['job moves (UPDATE jobs)', /^\s*(with[\s\S]*)?update\s+"?jobs"?/i],
  ['submissions (INSERT jobs)', /insert\s+into\s+"?jobs"?/i],
  ['job reads (SELECT jobs)', /^\s*select[\s\S]*from\s+"?jobs"?/i],
];

export function kindOf(text: string): string {
  return KINDS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'other';
}

/** Starts counting anew in the cluster (every database: one setup runs at a time). */
export async function resetStatementCounts(query: Query): Promise<void> {
  await query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await query('SELECT pg_stat_statements_reset()');
}

// The bench's own polling (settled(), the commit counts): not the instances' work.
const BENCH_OWN = /pg_stat_|count\(\*\) AS n FROM jobs WHERE state IN/i;

// JobStore.getJob: in the control-plane step nothing but the runner reads a job by its id.
const READ_BY_ID = /^select \* from "jobs" where "id" = \$1$/i;

export interface StatementCounts {
  /** Reads of one job by its id (the runner's, before it decides on a job), a job. */
  readsById: number;
  /** Calls a job, by kind, largest first. */
  byKind: { kind: string; perJob: number }[];
  /**
   * The statements called most, a job: the first 160 characters of each, and the time PostgreSQL
   * spent planning and running them a job (µs; their triggers' included).
   */
  top: { perJob: number; microsPerJob: number; kind: string; text: string }[];
  /** The statements PostgreSQL spent most time on (planning and running), µs a job. */
  slowest: { microsPerJob: number; perJob: number; text: string }[];
}

const shortened = (text: string) => text.replace(/\s+/g, ' ').slice(0, 160);

/** What the instances ran in this database since the reset, a job. */
export async function statementCounts(query: Query, jobs: number): Promise<StatementCounts> {
  const rows = await query(
    `SELECT s.query, s.calls, s.total_exec_time + s.total_plan_time AS ms FROM pg_stat_statements s
       JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()
      ORDER BY s.calls DESC`,
  );
  const statements = rows
    .filter((row) => !BENCH_OWN.test(String(row.query)))
    .map((row) => ({ text: String(row.query), calls: Number(row.calls), ms: Number(row.ms) }));
  const byKind = new Map<string, number>();
  for (const { text, calls } of statements) {
    const kind = kindOf(text);
    byKind.set(kind, (byKind.get(kind) ?? 0) + calls);
  }
  const readsById = statements
    .filter(({ text }) => READ_BY_ID.test(text.trim()))
    .reduce((sum, { calls }) => sum + calls, 0);
  return {
    readsById: round(readsById / jobs, 2),
    byKind: [...byKind]
      .map(([kind, calls]) => ({ kind, perJob: round(calls / jobs, 2) }))
      .sort((a, b) => b.perJob - a.perJob),
    top: statements.slice(0, 25).map(({ text, calls, ms }) => ({
      perJob: round(calls / jobs, 2),
      microsPerJob: round((ms * 1000) / jobs, 0),
      kind: kindOf(text),
      text: shortened(text),
    })),
    slowest: statements
      .toSorted((a, b) => b.ms - a.ms)
      .slice(0, 12)
      .map(({ text, calls, ms }) => ({
        microsPerJob: round((ms * 1000) / jobs, 0),
        perJob: round(calls / jobs, 2),
        text: shortened(text),
      })),
  };
}
