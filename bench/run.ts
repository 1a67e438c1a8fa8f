import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { buildIfChanged, removeRunContainers, runId, startService } from '../test/support/service';
import { BENCH_SETTINGS, rssMiB } from './jobdeck-client';
import { apiThroughput } from './scenarios/api';
import { cancelLatencies, scheduleAccuracy } from './scenarios/cancel-and-schedule';
import { initialBundleSize, watchedJobCost } from './scenarios/console';
import { followedLogFrames, idleJobsTableCost, lighthouseScores } from './scenarios/console-live';
import { engineOverhead, shortJobThroughput } from './scenarios/overhead';
import { scaleOut } from './scenarios/scale-out';
import { startupBeforeAfter } from './scenarios/startup';
import { storeScale } from './scenarios/store-scale';
import { submitCeiling } from './scenarios/submit-ceiling';
import { swarmComparison } from './scenarios/swarm';
import { sleep } from './stats';

/**
 * `npm run bench`: the real service (SQLite, local Docker) measured next to the engine it drives.
 * BENCH_QUICK=1 shrinks every count for a smoke run; figures from it are not comparable.
 */
const quick = process.env.BENCH_QUICK === '1';
const plan = {
  apiSeconds: quick ? 2 : 5,
  overheadJobs: quick ? 10 : 50,
  throughputJobs: quick ? 40 : 500,
  cancelSamples: quick ? 3 : 10,
  scheduleJobs: 100,
  // 10⁷ stored jobs take several minutes to seed: only with BENCH_STORE_10M=1.
  storeSizes: quick
    ? [10_000]
    : [10_000, 1_000_000, ...(process.env.BENCH_STORE_10M === '1' ? [10_000_000] : [])],
  consoleWindowSeconds: quick ? 10 : 30,
  scaleOutJobs: quick ? 60 : 500,
  logWindowSeconds: quick ? 5 : 15,
  startupRuns: quick ? 2 : 5,
  swarm: { jobs: quick ? 5 : 30, throughputJobs: quick ? 40 : 200 },
};

const ROOT = resolve(import.meta.dirname, '..');
const log = (line: string) => process.stdout.write(`${line}\n`);

async function main() {
  process.env.JOBDECK_TEST_RUN = `bench-${Date.now()}`;
  execFileSync(join(ROOT, 'scripts', 'build-test-image.sh'), { stdio: 'inherit' });
  buildIfChanged();
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version };
  log(
    `Jobdeck bench on ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}${quick ? ' (QUICK: not comparable)' : ''}`,
  );

  const service = await startService(BENCH_SETTINGS, undefined, { withConsole: true });
  const results: Record<string, unknown> = { when: new Date().toISOString(), quick, machine, plan };
  try {
    await sleep(1000);
    results.idleRssMiB = rssMiB(service.pid());
    log('1/11 API throughput and latency …');
    results.api = await apiThroughput(service, plan.apiSeconds);
    log('2/11 Job Submit beside a bare Fastify server and a durable floor, same schema …');
    results.submitCeiling = await submitCeiling(service, plan.apiSeconds);
    log('3/11 engine overhead …');
    results.overhead = await engineOverhead(service, plan.overheadJobs);
    log('4/11 short-job throughput …');
    results.throughput = await shortJobThroughput(service, plan.throughputJobs);
    log('5/11 cancel latency …');
    results.cancel = await cancelLatencies(service, plan.cancelSamples);
    log('6/11 schedule accuracy …');
    results.schedule = await scheduleAccuracy(service, plan.scheduleJobs);
    log('7/11 console …');
    results.console = {
      initial: initialBundleSize(),
      watchedJob: await watchedJobCost(service, plan.consoleWindowSeconds),
      idleJobsTable: await idleJobsTableCost(service, plan.consoleWindowSeconds),
      followedLog: await followedLogFrames(service, plan.logWindowSeconds),
      lighthouse: await lighthouseScores(service),
    };
    log('8/11 the three-node swarm (brought up if it is not) …');
    results.swarm = await swarmComparison(service, plan.swarm);
  } finally {
    await service.stop();
  }
  log('9/11 store scale …');
  results.store = await storeScale(plan.storeSizes, plan.apiSeconds);
  log('10/11 scale out: SQLite, PostgreSQL, 3 instances on PostgreSQL …');
  results.scaleOut = await scaleOut(plan.apiSeconds, plan.scaleOutJobs);
  log('11/11 start-up and idle memory: through tsx (before) and compiled (after) …');
  results.startup = await startupBeforeAfter(plan.startupRuns);
  removeRunContainers(runId());

  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const json = `${JSON.stringify(results, null, 2)}\n`;
  // A quick run is a smoke test: kept apart (and out of git) so it never replaces real figures.
  const saved = quick
    ? ['quick.json']
    : ['latest.json', `${String(results.when).replace(/[:.]/g, '-')}.json`];
  for (const name of saved) writeFileSync(join(dir, name), json);
  log(report(results));
  log(`saved ${saved.map((name) => `bench/results/${name}`).join(', ')}`);
}

function report(r: Record<string, unknown>): string {
  const get = (path: string): unknown =>
    path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], r);
  const lines: string[] = ['', '| figure | value |', '| --- | --- |'];
  const row = (name: string, value: unknown) => lines.push(`| ${name} | ${value} |`);
  for (const f of (get('api.figures') as {
    operation: string;
    connections: number;
    requestsPerSecond: number;
    p50Ms: number;
    p99Ms: number;
    errors: number;
  }[]) ?? []) {
    row(
      `API ${f.operation} c=${f.connections}`,
      `${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, errors ${f.errors}`,
    );
  }
  const o = get('overhead') as Record<string, Record<string, Record<string, number>>>;
  row(
    'submit → running (Jobdeck)',
    `p50 ${o.jobdeck!.toRunning!.p50} ms, p99 ${o.jobdeck!.toRunning!.p99} ms`,
  );
  row(
    'submit → completed (Jobdeck)',
    `p50 ${o.jobdeck!.toCompleted!.p50} ms, p99 ${o.jobdeck!.toCompleted!.p99} ms`,
  );
  row(
    'create+start (Engine API)',
    `p50 ${o.engineApi!.createStart!.p50} ms, p99 ${o.engineApi!.createStart!.p99} ms`,
  );
  row(
    'create+start+wait (Engine API)',
    `p50 ${o.engineApi!.createStartWait!.p50} ms, p99 ${o.engineApi!.createStartWait!.p99} ms`,
  );
  row(
    'docker run --rm (CLI)',
    `p50 ${(o.dockerRun as unknown as Record<string, number>).p50} ms, p99 ${(o.dockerRun as unknown as Record<string, number>).p99} ms`,
  );
  const ratios = o.ratios as unknown as Record<string, number>;
  row('ratio completed / Engine API (p50)', `${ratios.completedVsEngineApiWait}×`);
  row('ratio completed / docker run (p50)', `${ratios.completedVsDockerRun}×`);
  row('ratio running / Engine API start (p50)', `${ratios.runningVsEngineApiStart}×`);
  const t = get('throughput') as Record<string, number>;
  row(
    `short jobs (${t.jobs}, 8 at a time)`,
    `Jobdeck ${t.jobdeckJobsPerMinute}/min, docker run ${t.dockerRunJobsPerMinute}/min, ratio ${t.ratio}×`,
  );
  const w = get('swarm') as {
    completed: Record<string, Record<string, number>>;
    throughput: Record<string, number>;
  };
  const p = (f: Record<string, number> | undefined) => `p50 ${f!.p50} ms, p99 ${f!.p99} ms`;
  row('submit → completed, swarm (job network)', p(w.completed.swarm));
  row('submit → completed, swarm (node bridge)', p(w.completed.swarmNodeBridge));
  row('docker service create + poll (CLI)', p(w.completed.serviceCreateCli));
  row('submit → completed, local engine (same run)', p(w.completed.localEngine));
  row(
    `short jobs (${w.throughput.jobs}, 8 at a time), swarm vs local`,
    `${w.throughput.swarmJobsPerMinute}/min (node bridge ${w.throughput.swarmNodeBridgeJobsPerMinute}/min) vs ${w.throughput.localJobsPerMinute}/min`,
  );
  const c = get('cancel') as Record<string, Record<string, number>>;
  row('cancel pending → cancelled', `p50 ${c.pendingMs!.p50} ms, p99 ${c.pendingMs!.p99} ms`);
  row('cancel runnable → cancelled', `p50 ${c.runnableMs!.p50} ms, p99 ${c.runnableMs!.p99} ms`);
  row(
    'cancel running sleep (grace 1 s) → cancelled',
    `p50 ${c.runningSleepGrace1sMs!.p50} ms, p99 ${c.runningSleepGrace1sMs!.p99} ms`,
  );
  const s = get('schedule.latenessMs') as Record<string, number>;
  row(
    'schedule_at lateness (100 jobs, one instant)',
    `p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms`,
  );
  const sc = get('submitCeiling') as Record<string, Record<string, number>> & { ratio: number };
  for (const [name, f] of [
    ['Jobdeck', sc.jobdeck!],
    ['bare Fastify + schema', sc.bare!],
    ['durable floor (same rows, group commit)', sc.floor!],
    ['durable floor, auto-checkpoint off', sc.floorWithoutAutoCheckpoint!],
  ] as const) {
    row(
      `Job Submit c=16, ${name}`,
      `${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, ${f.cpuMicrosPerRequest} µs CPU/request, errors ${f.errors}`,
    );
  }
  row('Job Submit: Jobdeck ÷ bare', `${sc.ratio}`);
  const st = get('startup') as Record<string, Record<string, Record<string, number>>>;
  for (const name of ['tsx', 'compiled'] as const) {
    row(
      `start-up / idle RSS (${name === 'tsx' ? 'before: through tsx' : 'after: compiled'})`,
      `p50 ${st[name]!.startupMs!.p50} ms / ${st[name]!.idleRssMiB!.p50} MiB`,
    );
  }
  const first = get('startup.compiledFirstStart') as Record<string, number> | undefined;
  if (first) {
    row(
      'start-up / idle RSS (compiled, first start: writes the code cache)',
      `${first.startupMs} ms / ${first.idleRssMiB} MiB`,
    );
  }
  row('RSS idle / peak under API load', `${get('idleRssMiB')} MiB / ${get('api.peakRssMiB')} MiB`);
  for (const s of (get('store') as Record<string, number>[]) ?? []) {
    row(
      `store of ${s.storedJobs} jobs`,
      `detail p99 ${s.detailP99Ms} ms (${s.detailRequestsPerSecond} req/s), submit ${s.submitPerSecond}/s, start-up ${s.startupMs} ms, idle RSS ${s.idleRssMiB} MiB`,
    );
  }
  for (const s of (get('scaleOut') as {
    setup: string;
    submit: { requestsPerSecond: number; p99Ms: number };
    detail: { requestsPerSecond: number; p99Ms: number };
    shortJobs: number;
    jobsPerMinute: number;
  }[]) ?? []) {
    row(
      `${s.setup}: submit / detail (16 connections in all)`,
      `${s.submit.requestsPerSecond}/s p99 ${s.submit.p99Ms} ms · ${s.detail.requestsPerSecond}/s p99 ${s.detail.p99Ms} ms`,
    );
    row(`${s.setup}: ${s.shortJobs} short jobs end to end`, `${s.jobsPerMinute} jobs/min`);
  }
  const k = get('console') as Record<string, Record<string, number>>;
  row(
    'console initial JS / CSS (gzip)',
    `${k.initial!.jsGzipKiB} KiB / ${k.initial!.cssGzipKiB} KiB`,
  );
  row(
    'one watched job: requests/min',
    `${k.watchedJob!.whileActivePerMinute} while active, ${k.watchedJob!.afterEndPerMinute} after it ends`,
  );
  const table = k.idleJobsTable as unknown as Record<string, Record<string, number>>;
  row(
    `idle jobs table: requests in ${get('console.idleJobsTable.windowSeconds')} s`,
    `${table.streamUp!.requests} with the event stream up, ${table.streamDown!.requests} with it down (${table.streamDown!.perFiveSeconds} per 5 s)`,
  );
  const log = k.followedLog as unknown as Record<string, number> & {
    frameGapMs: Record<string, number>;
  };
  row(
    `followed log at ~1,000 lines/s (${log.linesPerSecond} lines/s taken in)`,
    `frame gap p50 ${log.frameGapMs.p50} ms, p95 ${log.frameGapMs.p95} ms, p99 ${log.frameGapMs.p99} ms, max ${log.frameGapMs.max} ms; ${log.longTasks} long tasks (${log.longTaskMs} ms) in ${log.windowSeconds} s`,
  );
  for (const [page, score] of Object.entries(
    k.lighthouse as unknown as Record<string, { accessibility: number; bestPractices: number }>,
  )) {
    row(
      `Lighthouse ${page}: accessibility / best practices`,
      `${score.accessibility} / ${score.bestPractices}`,
    );
  }
  return lines.join('\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
  process.exit(1);
});
