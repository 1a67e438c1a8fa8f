import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { submit } from '../../test/support/jobs';
import { createDatabase, shareCluster, startPostgres } from '../../test/support/postgres';
import { startService, type TestService } from '../../test/support/service';
import { BENCH_SETTINGS, cpuMs } from '../jobdeck-client';
import { jobsCounters, jobsWrites } from '../jobs-writes';
import { resetStatementCounts, STATEMENT_COUNTING, statementCounts } from '../pg-statements';
import { pool, round, sleep } from '../stats';

/**
 * Issue 27's control plane alone: 1, 2, 4 and 8 instances on one PostgreSQL, on the simulated
 * engine (nothing starts, docs/engines.md), so what bounds the figures is the service and the
 * database on this machine, not a container engine. The database is durable (fsync, full pages,
 * synchronous_commit on), as issue 48's figures ask: each commit waits for its WAL on disk.
 */
const SIMULATED_CLUSTER = {
  type: 'simulated',
  nodes: 100,
  slots_per_node: 20,
  start_ms: { min: 50, max: 200 },
  run_ms: { min: 500, max: 1500 },
};
const SETTINGS = {
  ...BENCH_SETTINGS,
  engine: SIMULATED_CLUSTER,
  // Room for the whole simulated cluster: the queue and the instances do not bound the figures.
  max_running: 2000,
  reconcile_interval_seconds: 1,
  // The default 15 s: at 5 s, eight instances starved of CPU missed heartbeats, were taken for
  // lost while alive, and their jobs (gone with their simulated clusters) ended error.
};
const WIDE_QUEUE = 'b::wide';
const TAKEOVER_JOBS = 100;
const IDLE_MS = 5_000;

type Query = (text: string, values?: unknown[]) => Promise<Record<string, string | null>[]>;

/** CPU of every process of the cluster (postmaster and its backends), from procfs. */
function clusterCpuMs(dataDir: string): number {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(entry) === postmaster || Number(stat[1]) === postmaster) {
        total += cpuMs(Number(entry));
      }
    } catch {
      // The process ended while the list was read: a backend that closed.
    }
  }
  return total;
}

async function settled(query: Query, jobs: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await query(
      "SELECT count(*) AS n FROM jobs WHERE state IN ('completed', 'failed', 'error', 'cancelled')",
    );
    if (Number(row!.n) >= jobs) return;
    if (Date.now() > until) throw new Error(`only ${row!.n} of ${jobs} jobs ended`);
    await sleep(500);
  }
}

/**
 * Kill -9 the dispatching instance (the dispatcher lease's holder) with jobs running: how long
 * until another holds the lease, and until the others have taken all of its jobs over. On one
 * machine a dead pid is seen at once; across machines add instance_timeout_seconds.
 */
async function takeover(
  services: TestService[],
  query: Query,
): Promise<{ dispatcherMs: number; jobsMs: number }> {
  const long = { JOBDECK_SIMULATE_RUN_MS: { value: '600000' } };
  await pool(
    Array.from({ length: TAKEOVER_JOBS }, (_, i) => i),
    16,
    (i) =>
      submit(services[i % services.length]!, {
        job_definition: 'b::true:1',
        job_queue: WIDE_QUEUE,
        container_env: long,
      }),
  );
  // The victim is the dispatcher, once it runs some of them (the jobs go to every instance).
  let owner: string | undefined;
  for (const until = Date.now() + 60_000; ; await sleep(200)) {
    const [holder] = await query(
      `SELECT l.holder FROM leases l WHERE l.name = 'dispatcher' AND EXISTS
        (SELECT 1 FROM jobs WHERE state = 'running' AND owner = l.holder)`,
    );
    owner = holder && String(holder.holder);
    if (owner) break;
    if (Date.now() > until) throw new Error('the dispatcher ran none of the jobs');
  }
  // An instance's id is host-pid-random (server/app/instance.ts).
  const victim = services.find((s) => s.pid() === Number(owner.split('-').at(-2)));
  if (!victim) throw new Error(`no instance started here is ${owner}`);
  await victim.stop('SIGKILL');
  const killedAt = Date.now();
  let dispatcherMs: number | undefined;
  for (const until = killedAt + 120_000; ; await sleep(20)) {
    const [lease] = await query(
      "SELECT holder FROM leases WHERE name = 'dispatcher' AND expires_at > $1",
      [Date.now()],
    );
    if (dispatcherMs === undefined && lease && lease.holder !== owner) {
      dispatcherMs = Date.now() - killedAt;
    }
    const [row] = await query(
      `SELECT count(*) AS n FROM jobs WHERE owner = $1
          AND state NOT IN ('completed', 'failed', 'error', 'cancelled')`,
      [owner],
    );
    if (Number(row!.n) === 0 && dispatcherMs !== undefined) {
      return { dispatcherMs, jobsMs: Date.now() - killedAt };
    }
    if (Date.now() > until)
      throw new Error(`${row!.n} jobs of the killed instance never taken over`);
  }
}

async function measure(instances: number, jobs: number, dataDir: string, nodeArgs: string[]) {
  const url = await createDatabase();
  const client = new pg.Client({ connectionString: url });
  const services: TestService[] = [];
  try {
    for (let i = 0; i < instances; i += 1) {
      services.push(
        await startService({ ...SETTINGS, store: { type: 'postgres', url } }, undefined, {
          nodeArgs,
        }),
      );
    }
    await client.connect();
    const query: Query = async (text, values) => (await client.query(text, values)).rows;
    const commits = async () =>
      Number(
        (
          await query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')
        )[0]!.xact_commit,
      );
    // What the instances commit idle (heartbeats, passes, the dispatcher lease): on a starved
    // machine a slow run makes it a large share of a job, so it is also taken out.
    await resetStatementCounts(query);
    const idleFrom = await commits();
    const serviceCpu = () => services.reduce((sum, s) => sum + cpuMs(s.pid()), 0);
    const idleCpuFrom = { service: serviceCpu(), database: clusterCpuMs(dataDir) };
    const idleBegin = Date.now();
    await sleep(IDLE_MS);
    const idleSeconds = (Date.now() - idleBegin) / 1000;
    const idlePerSecond = ((await commits()) - idleFrom) / idleSeconds;
    // What the instances cost with nothing to do, in % of a core: each one's, and the database's.
    const idleCpuPercent = {
      instance: round((serviceCpu() - idleCpuFrom.service) / idleSeconds / 10 / instances, 1),
      database: round((clusterCpuMs(dataDir) - idleCpuFrom.database) / idleSeconds / 10, 1),
    };
    // What the idle commits are: the statements run most, a second.
    const idleStatements = (await statementCounts(query, idleSeconds)).top
      .slice(0, 8)
      .map(({ perJob, text }) => ({ perSecond: perJob, text }));
    await resetStatementCounts(query);
    const commitsBefore = await commits();
    const jobsBefore = await jobsCounters(query);
    const cpuBefore = clusterCpuMs(dataDir);
    const serviceCpuBefore = serviceCpu();
    const begin = Date.now();
    await pool(
      Array.from({ length: jobs }, (_, i) => i),
      32,
      (i) =>
        submit(services[i % instances]!, { job_definition: 'b::true:1', job_queue: WIDE_QUEUE }),
    );
    const submitSeconds = (Date.now() - begin) / 1000;
    await settled(query, jobs, 20 * 60_000);
    const wallMs = Date.now() - begin;
    const databaseCpuMs = clusterCpuMs(dataDir) - cpuBefore;
    const serviceCpuMs = serviceCpu() - serviceCpuBefore;
    const transactions = (await commits()) - commitsBefore;
    const statements = await statementCounts(query, jobs);
    const writes = jobsWrites(jobsBefore, await jobsCounters(query), jobs);
    const [dispatch] = await query(
      "SELECT count(*) AS n, min(at) AS first, max(at) AS last FROM job_transitions WHERE to_state = 'running'",
    );
    const [toRunning] = await query(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t.at - j.created_at) AS p50,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY t.at - j.created_at) AS p99
         FROM job_transitions t JOIN jobs j ON j.id = t.job_id WHERE t.to_state = 'running'`,
    );
    const dispatchSeconds = (Number(dispatch!.last) - Number(dispatch!.first)) / 1000;
    // Every job should complete: an error is a takeover of a live instance (missed heartbeats).
    const [errors] = await query("SELECT count(*) AS n FROM jobs WHERE state <> 'completed'");
    const takeoverMs = instances > 1 ? await takeover(services, query) : null;
    return {
      instances,
      jobs,
      submitsPerSecond: round(jobs / submitSeconds, 0),
      dispatchedPerSecond: round(Number(dispatch!.n) / dispatchSeconds, 0),
      toRunningMs: { p50: round(Number(toRunning!.p50), 0), p99: round(Number(toRunning!.p99), 0) },
      transactionsPerJob: round(transactions / jobs, 1),
      idleTransactionsPerSecond: round(idlePerSecond, 1),
      idleCpuPercent,
      transactionsPerJobNetOfIdle: round(
        (transactions - (idlePerSecond * wallMs) / 1000) / jobs,
        1,
      ),
      databaseCpuMsPerJob: round(databaseCpuMs / jobs, 2),
      databaseCpuPercent: round((databaseCpuMs / wallMs) * 100, 0),
      serviceCpuMsPerJob: round(serviceCpuMs / jobs, 2),
      notCompleted: Number(errors!.n),
      statements,
      writes,
      idleStatements,
      takeoverMs,
    };
  } finally {
    await client.end().catch(() => undefined);
    for (const service of services) await service.stop().catch(() => null);
  }
}

export async function controlPlane(
  jobs: number,
  instanceCounts: readonly number[],
  /** Node's flags for every instance (`--cpu-prof`). */
  nodeArgs: string[] = [],
) {
  const cluster = await startPostgres({ durable: true, settings: STATEMENT_COUNTING });
  shareCluster(cluster);
  try {
    const figures = [];
    for (const instances of instanceCounts) {
      figures.push(await measure(instances, jobs, cluster.dataDir, nodeArgs));
    }
    return figures;
  } finally {
    cluster.stop();
  }
}
