import type { TestService } from '../test/support/service';
import type { Need } from './prerequisites';
import { apiThroughput } from './scenarios/api';
import { arrayAdmission, arrayCompletion } from './scenarios/arrays';
import { bulkCancel } from './scenarios/bulk-cancel';
import { cancelLatencies, scheduleAccuracy } from './scenarios/cancel-and-schedule';
import { controlPlane } from './scenarios/control-plane';
import { watchedJobCost } from './scenarios/console';
import { initialBundleSize } from './scenarios/console-bundle';
import {
  firstLoadTransfer,
  followedLogFrames,
  idleJobsTableCost,
  lighthouseScores,
} from './scenarios/console-live';
import { dependencyTurnaround } from './scenarios/dependency';
import { engineOverhead, shortJobThroughput } from './scenarios/overhead';
import { retentionSoak } from './scenarios/retention-soak';
import { webhookLoad } from './scenarios/webhooks';
import { retryTurnaround } from './scenarios/retry';
import { scaleOut } from './scenarios/scale-out';
import { scheduleLateness } from './scenarios/schedule';
import { signInCosts } from './scenarios/sign-in';
import { startupBeforeAfter } from './scenarios/startup';
import { storeScale, type StoreKind } from './scenarios/store-scale';
import { submitCeiling } from './scenarios/submit-ceiling';
import { slurmClusterUp, slurmComparison } from './scenarios/slurm';
import { swarmComparison } from './scenarios/swarm';
import { trendsScale } from './scenarios/trends';
import { usageSamplingCost } from './scenarios/usage-sampling';
import { watchers } from './scenarios/watchers';
import { round } from './stats';

/**
 * BENCH_QUICK=1 shrinks every count for a smoke run; figures from it are not comparable.
 */
const quick = process.env.BENCH_QUICK === '1';
export const plan = {
  quick,
  apiSeconds: quick ? 2 : 5,
  overheadJobs: quick ? 10 : 50,
  throughputJobs: quick ? 40 : 500,
  cancelSamples: quick ? 3 : 10,
  // The most a bulk action takes (100,000) with BENCH_BULK_JOBS=100000.
  bulkCancelJobs: quick ? 1000 : Number(process.env.BENCH_BULK_JOBS ?? 10_000),
  scheduleJobs: 100,
  retryJobs: quick ? 5 : 50,
  dependencyPairs: quick ? 5 : 50,
  arraySize: quick ? 500 : 10_000,
  // Run to completion, children are bound by the engine (some 360 containers a minute here).
  arrayRunChildren: quick ? 16 : Number(process.env.BENCH_ARRAY_RUN ?? 200),
  scheduleSeconds: quick ? 5 : 20,
  // 10⁷ stored jobs take several minutes to seed: only with BENCH_STORE_10M=1.
  storeSizes: quick
    ? [10_000]
    : [10_000, 1_000_000, ...(process.env.BENCH_STORE_10M === '1' ? [10_000_000] : [])],
  consoleWindowSeconds: quick ? 10 : 30,
  // BENCH_SCALE_OUT_JOBS=0: the API figures alone, without the short jobs run on Docker.
  scaleOutJobs: quick ? 60 : Number(process.env.BENCH_SCALE_OUT_JOBS ?? 500),
  // 10⁵ jobs (the scale issue's count) take some 20 minutes a setup on 2 cores at the rate
  // measured (docs/scaling.md): BENCH_CONTROL_PLANE_JOBS=100000 runs them.
  controlPlane: {
    jobs: quick ? 2000 : Number(process.env.BENCH_CONTROL_PLANE_JOBS ?? 10_000),
    // BENCH_CONTROL_PLANE_INSTANCES=1: one setup alone (a comma-separated list of counts).
    instances: process.env.BENCH_CONTROL_PLANE_INSTANCES
      ? process.env.BENCH_CONTROL_PLANE_INSTANCES.split(',').map(Number)
      : quick
        ? [1, 2]
        : [1, 2, 4, 8],
    // BENCH_CONTROL_PLANE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof": Node's flags for every
    // instance, to see where its CPU goes (a profile is written when the instance stops).
    nodeArgs: process.env.BENCH_CONTROL_PLANE_NODE_ARGS?.split(' ').filter(Boolean) ?? [],
  },
  watchers: quick
    ? { streams: 100, transitionsPerSecond: 100, seconds: 5 }
    : { streams: 1000, transitionsPerSecond: 500, seconds: 20 },
  logWindowSeconds: quick ? 5 : 15,
  startupRuns: quick ? 2 : 5,
  // BENCH_RETENTION_KEEP=forever: the control, the same load with nothing deleted.
  retentionSoak: {
    seconds: quick ? 30 : 120,
    submitsPerSecond: quick ? 50 : 100,
    keep: process.env.BENCH_RETENTION_KEEP ?? (quick ? '5s' : '20s'),
    steadyAfterSeconds: quick ? 20 : 40,
    sampleEverySeconds: quick ? 5 : 10,
  },
  swarm: { jobs: quick ? 5 : 30, throughputJobs: quick ? 40 : 200 },
  slurm: { jobs: quick ? 3 : 10, throughputJobs: quick ? 16 : 40 },
  webhooks: { seconds: quick ? 10 : 30, submitsPerSecond: quick ? 50 : 100 },
  signIn: {
    passwordSignIns: quick ? 5 : 30,
    oidcWalks: quick ? 3 : 20,
    detailSeconds: quick ? 2 : 10,
  },
  // 10⁷ ended jobs take some minutes to seed and to roll: only with BENCH_TRENDS_JOBS=10000000.
  trendsJobs: quick ? 10_000 : Number(process.env.BENCH_TRENDS_JOBS ?? 1_000_000),
  // Sixteen running jobs (the fast queue's slots), each sampled every 5 s (the default) and 1 s.
  usageSampling: { jobs: 16, windowSeconds: quick ? 10 : 60, intervals: [5, 1] },
};

type Row = [figure: string, value: string];
type Latency = { p50: number; p99: number };
const latency = (f: Latency) => `p50 ${f.p50} ms, p99 ${f.p99} ms`;

/**
 * One bench step: what it needs from the machine, whether it measures the service the run
 * shares (started once, with the console) or starts its own, and how its figures print.
 */
export interface Step<Result = never> {
  name: string;
  title: string;
  needs: readonly Need[];
  /** It measures the service the run shares rather than starting services of its own. */
  needsSharedService: boolean;
  /** Whether a run that names no steps runs it (always, without this). */
  byDefault?: () => boolean;
  run(shared: () => Promise<TestService>): Promise<Result>;
  rows(result: Result): Row[];
}

const step = <Result>(definition: Step<Result>) => definition as unknown as Step<unknown>;

interface LoadFigure {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

const STORE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;

/** The store step on one kind of store: the same jobs, lists and loads on each. */
function storeStep(kind: StoreKind) {
  const name = STORE_NAMES[kind];
  return step({
    name: kind === 'sqlite' ? 'store' : 'store-postgres',
    title: `store scale, ${name}`,
    needs: kind === 'sqlite' ? ['docker'] : ['docker', 'postgres'],
    needsSharedService: false,
    run: () => storeScale(kind, plan.storeSizes, plan.apiSeconds),
    rows: (sizes) =>
      sizes.flatMap((s): Row[] => {
        const store = `${name} store of ${s.storedJobs} jobs`;
        return [
          [
            store,
            `detail p99 ${s.detailP99Ms} ms (${s.detailRequestsPerSecond} req/s), submit p99 ${s.submitP99Ms} ms (${s.submitPerSecond}/s), start-up ${s.startupMs} ms, idle RSS ${s.idleRssMiB} MiB`,
          ],
          [`${store}: an ended job's final move, its output kept`, latency(s.keepOutputMs)],
          [`${store}: a submit until its event on an open stream`, latency(s.eventMs)],
          [
            `${store}: a waiting job's place (counted to 1,000), last of ${s.waitingInQueue > 1000 ? 'over 1,000' : s.waitingInQueue} in its queue`,
            latency(s.placeMs),
          ],
          [
            `${store}: the overview (every queue's counts; the seeded jobs ended 10 ms apart, so up to 8.6 million in the last day)`,
            `p99 ${s.overview.p99Ms} ms (${s.overview.requestsPerSecond} req/s, one reader)`,
          ],
          ...s.list.map((l): Row => [
            `${store}: list by ${l.filter} (page of 50, counted)`,
            `p99 ${l.p99Ms} ms (${l.requestsPerSecond} req/s, one reader)`,
          ]),
          ...s.reads.map((r): Row => [
            `${store}: the console's read of ${r.read}`,
            `p99 ${r.p99Ms} ms (${r.requestsPerSecond} req/s, one reader)`,
          ]),
        ];
      }),
  });
}

type ScaleOutSetup = Awaited<ReturnType<typeof scaleOut>>[number];

/** One setup's submits and Job Detail as shares of another's. */
function ratioRow(setup: ScaleOutSetup, base: ScaleOutSetup, baseName: string): Row {
  const share = (f: (x: ScaleOutSetup) => number) => round(f(setup) / f(base), 2);
  return [
    `${setup.setup} ÷ ${baseName}: submit / detail`,
    `${share((x) => x.submit.requestsPerSecond)} / ${share((x) => x.detail.requestsPerSecond)}`,
  ];
}

export const STEPS: Step<unknown>[] = [
  step({
    name: 'api',
    title: 'API throughput and latency',
    needs: ['docker'],
    needsSharedService: true,
    run: async (shared) => apiThroughput(await shared(), plan.apiSeconds),
    rows: (r) =>
      (r.figures as (LoadFigure & { operation: string; connections: number })[]).map((f) => [
        `API ${f.operation} c=${f.connections}`,
        `${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, errors ${f.errors}`,
      ]),
  }),
  step({
    name: 'submit',
    title: 'Job Submit beside a bare Fastify server and a durable floor, same schema',
    needs: ['docker'],
    needsSharedService: true,
    run: async (shared) => submitCeiling(await shared(), plan.apiSeconds),
    rows: (r) => {
      const figures = r as unknown as Record<string, LoadFigure & { cpuMicrosPerRequest: number }>;
      const named = [
        ['Jobdeck', figures.jobdeck!],
        ['bare Fastify + schema', figures.bare!],
        ['durable floor (same rows, group commit)', figures.floor!],
        ['durable floor, auto-checkpoint off', figures.floorWithoutAutoCheckpoint!],
      ] as const;
      return [
        ...named.map(([name, f]): Row => [
          `Job Submit c=16, ${name}`,
          `${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, ${f.cpuMicrosPerRequest} µs CPU/request, errors ${f.errors}`,
        ]),
        ['Job Submit: Jobdeck ÷ bare', `${r.ratio}`],
      ];
    },
  }),
  step({
    name: 'overhead',
    title: 'engine overhead',
    needs: ['docker'],
    needsSharedService: true,
    run: async (shared) => engineOverhead(await shared(), plan.overheadJobs),
    rows: (r) => {
      const o = r as unknown as Record<string, Record<string, Latency>>;
      const ratios = r.ratios as unknown as Record<string, number>;
      return [
        ['submit → running (Jobdeck)', latency(o.jobdeck!.toRunning!)],
        ['submit → completed (Jobdeck)', latency(o.jobdeck!.toCompleted!)],
        ['create+start (Engine API)', latency(o.engineApi!.createStart!)],
        ['create+start+wait (Engine API)', latency(o.engineApi!.createStartWait!)],
        ['docker run --rm (CLI)', latency(o.dockerRun as unknown as Latency)],
        ['ratio completed / Engine API (p50)', `${ratios.completedVsEngineApiWait}×`],
        ['ratio completed / docker run (p50)', `${ratios.completedVsDockerRun}×`],
        ['ratio running / Engine API start (p50)', `${ratios.runningVsEngineApiStart}×`],
      ];
    },
  }),
  step({
    name: 'throughput',
    title: 'short-job throughput',
    needs: ['docker'],
    needsSharedService: true,
    run: async (shared) => shortJobThroughput(await shared(), plan.throughputJobs),
    rows: (t) => [
      [
        `short jobs (${t.jobs}, 8 at a time)`,
        `Jobdeck ${t.jobdeckJobsPerMinute}/min, docker run ${t.dockerRunJobsPerMinute}/min, ratio ${t.ratio}×`,
      ],
    ],
  }),
  step({
    name: 'cancel',
    title: 'cancel latency',
    needs: ['docker'],
    needsSharedService: true,
    run: async (shared) => cancelLatencies(await shared(), plan.cancelSamples),
    rows: (c) => [
      ['cancel pending → cancelled', latency(c.pendingMs)],
      ['cancel runnable → cancelled', latency(c.runnableMs)],
      ['cancel running sleep (grace 1 s) → cancelled', latency(c.runningSleepGrace1sMs)],
    ],
  }),
  step({
    name: 'bulk-cancel',
    title: 'bulk cancel over a filter',
    needs: ['docker'],
    needsSharedService: true,
    run: async (shared) => bulkCancel(await shared(), plan.bulkCancelJobs),
    rows: (b) => [
      [
        `bulk cancel of ${b.size.toLocaleString('en-US')} matching jobs: dry run / all cancelled`,
        `${b.dryRunMs} ms / ${b.doneMs} ms (${b.jobsPerSecond} jobs/s)`,
      ],
      [
        'bulk cancel: Job Submit (4 at a time) alone / during it',
        `${latency(b.submitAloneMs)} / ${latency(b.submitDuringMs)} (n=${b.submitDuringMs.n})`,
      ],
    ],
  }),
  step({
    name: 'schedule',
    title: 'schedule accuracy',
    needs: ['docker'],
    needsSharedService: true,
    run: async (shared) => scheduleAccuracy(await shared(), plan.scheduleJobs),
    rows: (s) => [
      [
        'schedule_at lateness (100 jobs, one instant)',
        `p50 ${s.latenessMs.p50} ms, p99 ${s.latenessMs.p99} ms, max ${s.latenessMs.max} ms`,
      ],
    ],
  }),
  step({
    name: 'retry',
    title: 'retry turnaround',
    needs: ['docker'],
    needsSharedService: true,
    run: async (shared) => retryTurnaround(await shared(), plan.retryJobs),
    rows: (r) => [
      [
        `retry: attempt failed → next attempt running (backoff 0, ${r.jobs} jobs)`,
        latency(r.retryToRunningMs),
      ],
      ['retry: beside a new job, submit → running', latency(r.submitToRunningMs)],
    ],
  }),
  step({
    name: 'dependency',
    title: 'dependency turnaround',
    needs: ['docker'],
    needsSharedService: true,
    run: async (shared) => dependencyTurnaround(await shared(), plan.dependencyPairs),
    rows: (d) => [
      [
        `dependency: job completed → the job waiting for it (afterok) running (${d.pairs} pairs)`,
        latency(d.completedToDependentRunningMs),
      ],
      ['dependency: beside the first job, submit → running', latency(d.submitToRunningMs)],
    ],
  }),
  step({
    name: 'array',
    title: 'array jobs',
    needs: ['docker'],
    needsSharedService: true,
    run: async (shared) => ({
      admission: await arrayAdmission(await shared(), plan.arraySize),
      completion: await arrayCompletion(await shared(), plan.arrayRunChildren),
    }),
    rows: ({ admission: a, completion: c }) => [
      [
        `array: ${a.size.toLocaleString('en-US')} children accepted (one submit) / as many separate submits (16 at a time)`,
        `${a.arrayAcceptMs} ms / ${a.separateAcceptMs} ms`,
      ],
      [
        'array: Job Submit (4 at a time) alone / while the array is admitted',
        `${latency(a.submitAloneMs)} / ${latency(a.submitBesideArrayMs)} (n=${a.submitBesideArrayMs.n})`,
      ],
      [
        `array: cancel the parent → all ${a.size.toLocaleString('en-US')} children cancelled`,
        `${a.arrayCancelMs} ms`,
      ],
      [
        `array: ${c.size} children of \`true\` run (8 slots) / as many separate jobs`,
        `${c.arrayJobsPerMinute} / ${c.separateJobsPerMinute} jobs/min (${c.arrayMs} / ${c.separateMs} ms)`,
      ],
    ],
  }),
  step({
    name: 'recurring',
    title: 'recurring schedule lateness',
    needs: ['docker'],
    needsSharedService: true,
    run: async (shared) => scheduleLateness(await shared(), plan.scheduleSeconds),
    rows: (r) => [
      [
        `schedule: firing time → its job stored (every second, ${r.firings} firings)`,
        latency(r.fireToStoredMs),
      ],
      ['schedule: firing time → its job running', latency(r.fireToRunningMs)],
    ],
  }),
  step({
    name: 'console',
    title: 'console',
    needs: ['docker', 'chromium'],
    needsSharedService: true,
    run: async (shared) => {
      const service = await shared();
      return {
        initial: initialBundleSize(),
        firstLoad: await firstLoadTransfer(service.consoleUrl()),
        watchedJob: await watchedJobCost(service, plan.consoleWindowSeconds),
        idleJobsTable: await idleJobsTableCost(service, plan.consoleWindowSeconds),
        followedLog: await followedLogFrames(service, plan.logWindowSeconds),
      };
    },
    rows: (k) => {
      const table = k.idleJobsTable;
      const log = k.followedLog;
      return [
        [
          'console initial JS / CSS (gzip)',
          `${k.initial.jsGzipKiB} KiB / ${k.initial.cssGzipKiB} KiB`,
        ],
        [
          "console first load in Chromium: the files' bytes on the wire; time to the load event",
          `${k.firstLoad.loopback.KiB} KiB; ${k.firstLoad.loopback.loadMs} ms on loopback, ${k.firstLoad.broadband.loadMs} ms at 20 Mbit/s and 40 ms RTT`,
        ],
        [
          'one watched job: requests/min',
          `${k.watchedJob.whileActivePerMinute} while active, ${k.watchedJob.afterEndPerMinute} after it ends`,
        ],
        [
          `idle jobs table: requests in ${table.windowSeconds} s`,
          `${table.streamUp.requests} with the event stream up, ${table.streamDown.requests} with it down (${table.streamDown.perFiveSeconds} per 5 s)`,
        ],
        [
          `followed log at ~1,000 lines/s (${log.linesPerSecond} lines/s taken in)`,
          `frame gap p50 ${log.frameGapMs.p50} ms, p95 ${log.frameGapMs.p95} ms, p99 ${log.frameGapMs.p99} ms, max ${log.frameGapMs.max} ms; ${log.longTasks} long tasks (${log.longTaskMs} ms) in ${log.windowSeconds} s`,
        ],
      ];
    },
  }),
  step({
    name: 'lighthouse',
    title: "Lighthouse's accessibility and best-practices scores per page",
    needs: ['docker', 'chromium', 'lighthouse'],
    needsSharedService: true,
    run: async (shared) => lighthouseScores(await shared()),
    rows: (scores) =>
      Object.entries(scores).map(([page, score]): Row => [
        `Lighthouse ${page}: accessibility / best practices`,
        `${score.accessibility} / ${score.bestPractices}`,
      ]),
  }),
  step({
    name: 'swarm',
    title: 'the three-node swarm (brought up if it is not)',
    needs: ['docker', 'swarm'],
    needsSharedService: true,
    run: async (shared) => swarmComparison(await shared(), plan.swarm),
    rows: (w) => [
      ['submit → completed, swarm (job network)', latency(w.completed.swarm)],
      ['submit → completed, swarm (node bridge)', latency(w.completed.swarmNodeBridge)],
      ['docker service create + poll (CLI)', latency(w.completed.serviceCreateCli)],
      ['submit → completed, local engine (same run)', latency(w.completed.localEngine)],
      [
        `short jobs (${w.throughput.jobs}, 8 at a time), swarm vs local`,
        `${w.throughput.swarmJobsPerMinute}/min (node bridge ${w.throughput.swarmNodeBridgeJobsPerMinute}/min) vs ${w.throughput.localJobsPerMinute}/min`,
      ],
    ],
  }),
  step({
    name: 'slurm',
    title: 'the one-machine Slurm cluster (brought up if it is not, when named)',
    needs: ['docker', 'slurm'],
    needsSharedService: false,
    // A cluster is root's and some seconds to bring up: by default only when one is up already.
    byDefault: slurmClusterUp,
    run: () => slurmComparison(plan.slurm),
    rows: (s) => [
      ['submit → completed, Slurm engine', latency(s.completed.jobdeck)],
      ['sbatch --wait of the same docker run', latency(s.completed.sbatchWait)],
      [
        `short jobs (${s.throughput.jobs}, 8 at a time), Jobdeck on Slurm vs sbatch`,
        `${s.throughput.jobdeckJobsPerMinute}/min vs ${s.throughput.sbatchJobsPerMinute}/min`,
      ],
    ],
  }),
  storeStep('sqlite'),
  storeStep('postgres'),
  step({
    name: 'scale-out',
    title: 'scale out: SQLite, PostgreSQL, 3 instances on PostgreSQL',
    needs: ['docker', 'postgres'],
    needsSharedService: false,
    run: () => scaleOut(plan.apiSeconds, plan.scaleOutJobs),
    rows: (setups) =>
      setups.flatMap((s, i): Row[] => [
        [
          `${s.setup}: submit / detail (16 connections in all)`,
          `${s.submit.requestsPerSecond}/s p99 ${s.submit.p99Ms} ms · ${s.detail.requestsPerSecond}/s p99 ${s.detail.p99Ms} ms`,
        ],
        ...(s.shortJobs > 0
          ? [
              [
                `${s.setup}: ${s.shortJobs} short jobs end to end`,
                `${s.jobsPerMinute} jobs/min`,
              ] as Row,
            ]
          : []),
        // Issue 27's bar is relative: each PostgreSQL setup against SQLite's figures in this run,
        // and three instances against one on the same database.
        ...(i > 0 ? [ratioRow(s, setups[0]!, 'SQLite')] : []),
        ...(i > 1 ? [ratioRow(s, setups[1]!, setups[1]!.setup)] : []),
      ]),
  }),
  step({
    name: 'control-plane',
    title: 'the control plane alone: 1–8 instances on one PostgreSQL, simulated engine',
    needs: ['postgres'],
    needsSharedService: false,
    run: () =>
      controlPlane(plan.controlPlane.jobs, plan.controlPlane.instances, plan.controlPlane.nodeArgs),
    rows: (setups) =>
      setups.flatMap((s): Row[] => [
        [
          `${s.instances} instance(s), ${s.jobs} jobs: submitted / dispatched per second`,
          `${s.submitsPerSecond}/s · ${s.dispatchedPerSecond}/s (${s.notCompleted} not completed)`,
        ],
        [`${s.instances} instance(s): submit → running`, latency(s.toRunningMs)],
        [
          `${s.instances} instance(s): per job, database`,
          `${s.transactionsPerJob} transactions (${s.transactionsPerJobNetOfIdle} net of the ${s.idleTransactionsPerSecond}/s committed idle), ${s.databaseCpuMsPerJob} ms CPU (${s.databaseCpuPercent} % of a core over the run); service ${s.serviceCpuMsPerJob} ms CPU`,
        ],
        [
          `${s.instances} instance(s), idle: CPU, % of a core, each instance / the database`,
          `${s.idleCpuPercent.instance} % / ${s.idleCpuPercent.database} %`,
        ],
        [`${s.instances} instance(s): the runner's reads of a job`, `${s.statements.readsById}`],
        [
          `${s.instances} instance(s): jobs' row updates a job (HOT), its indexes' scans a job`,
          `${s.writes.updatesPerJob} (${s.writes.hotPercent} % HOT) · ${s.writes.indexScansPerJob.map(({ index, perJob }) => `${index} ${perJob}`).join(' · ')}`,
        ],
        [
          `${s.instances} instance(s): statements a job, by kind (pg_stat_statements)`,
          s.statements.byKind.map(({ kind, perJob }) => `${kind} ${perJob}`).join(' · '),
        ],
        ...(s.takeoverMs === null
          ? []
          : [
              [
                `${s.instances} instances: kill -9 the dispatcher: a new one / its jobs taken over in`,
                `${s.takeoverMs.dispatcherMs} ms / ${s.takeoverMs.jobsMs} ms`,
              ] as Row,
            ]),
      ]),
  }),
  step({
    name: 'watchers',
    title: 'event-stream subscribers while jobs move (simulated engine)',
    needs: [],
    needsSharedService: false,
    run: () =>
      watchers(plan.watchers.streams, plan.watchers.transitionsPerSecond, plan.watchers.seconds),
    rows: (r) => [
      [
        `${r.streams} subscribers, ${r.transitionsPerSecond} transitions/s (${r.jobs} jobs, ${r.failedSubmits} submits failed${r.firstFailure ? `: ${r.firstFailure}` : ''}; ${r.eventsPerStream.delivered} of ${r.eventsPerStream.expected} events a stream): change → event`,
        `p50 ${r.delayMs.p50} ms, p99 ${r.delayMs.p99} ms, max ${r.delayMs.max} ms`,
      ],
      [
        `${r.streams} subscribers: service RSS before / after (one subscriber not reading)`,
        `${r.rssMiB.before} / ${r.rssMiB.after} MiB`,
      ],
      [
        `${r.streams} subscribers: CPU, % of one core, service / load generator`,
        `${r.cpuPercent.service} % / ${r.cpuPercent.loadGenerator} % (${r.discardedMiB} MiB read and dropped); service CPU for the whole run ${r.serviceCpuSeconds} s`,
      ],
    ],
  }),
  step({
    name: 'retention',
    title: 'store size under steady submits with retention on (simulated engine, SQLite)',
    needs: [],
    needsSharedService: false,
    run: () => retentionSoak(plan.retentionSoak),
    rows: (r) => {
      const soak = `retention soak: ${r.submitsPerSecond} submits/s for ${r.seconds} s, kept ${r.keep}`;
      return [
        [
          `${soak}: store file + WAL, every ${r.sampleEverySeconds} s`,
          r.samples.map((s) => `${s.fileMiB}+${s.walMiB}`).join(', ') + ' MiB',
        ],
        [
          `${soak}: from ${r.steady.fromSeconds} s to the end, smallest–largest sample`,
          `file ${r.steady.fileMiB.join('–')} MiB, ${r.steady.pages.join('–')} pages, ${r.steady.jobs.join('–')} jobs stored (${r.submitted} submitted)`,
        ],
        [`${soak}: Job Submit (${r.failed} failed)`, latency(r.submitMs)],
      ];
    },
  }),
  step({
    name: 'webhooks',
    title: 'a webhook told of every completion under steady submits (simulated engine, SQLite)',
    needs: [],
    needsSharedService: false,
    run: () => webhookLoad(plan.webhooks),
    rows: ({ hooked, control, ...load }) => {
      const steady = `${load.submitsPerSecond} submits/s for ${load.seconds} s`;
      return [
        [
          `webhooks, ${steady}: job.completed delivered / missing / twice`,
          `${hooked.delivered} of ${hooked.submitted} / ${hooked.missing} / ${hooked.duplicates} (${hooked.deliveriesPerSecond} deliveries/s)`,
        ],
        [`webhooks, ${steady}: from the change to the receiver`, latency(hooked.delayMs)],
        [
          `webhooks, ${steady}: Job Submit with the webhook / without (${hooked.failed + control.failed} failed)`,
          `${latency(hooked.submitMs)} / ${latency(control.submitMs)}`,
        ],
      ];
    },
  }),
  step({
    name: 'sign-in',
    title: 'sign-in (password, OpenID Connect) and the cost of roles and sessions per request',
    needs: [],
    needsSharedService: false,
    run: () => signInCosts(plan.signIn),
    rows: (r) => {
      const detail = (name: string, f: LoadFigure): Row => [
        `Job Detail c=16, 2 × ${r.detailSeconds / 2} s (A B C C B A), ${name}`,
        `${f.requestsPerSecond} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms (the higher half), errors ${f.errors}`,
      ];
      return [
        [
          `password sign-in, POST /v1/auth/sign-in (${r.passwordMs.n} in turn)`,
          latency(r.passwordMs),
        ],
        [
          `OpenID Connect sign-in: start → provider's login and consent → callback (${r.oidcMs.n} in turn)`,
          latency(r.oidcMs),
        ],
        [
          'the role check alone (Job Detail, in-process, 10⁶ times)',
          `${r.roleCheckNs} ns per request`,
        ],
        detail('admin API key', r.detail.adminKey!),
        detail('viewer API key (role checked)', r.detail.viewerKey!),
        detail("operator's session cookie", r.detail.operatorSession!),
      ];
    },
  }),
  step({
    name: 'trends',
    title:
      'trends: the roller over a store of ended jobs, then the endpoint over 30 days of rollups',
    needs: ['docker'],
    needsSharedService: false,
    run: () => trendsScale(plan.trendsJobs, plan.apiSeconds),
    rows: (r) => {
      const store = `trends over ${r.storedJobs} ended jobs (${r.changesRolled} changes)`;
      return [
        [
          `${store}: the roller's first pass`,
          `${r.changesPerSecond} changes/s (${r.endedJobsPerSecond} ended jobs/s), ${r.rollSeconds} s`,
        ],
        [
          `${store}: rollup rows of one queue, counts / histogram buckets`,
          `hourly (2 days kept) ${r.rowsPerQueue.hour.join(' / ')}, daily ${r.rowsPerQueue.day.join(' / ')}`,
        ],
        ...Object.entries(r.latency).map(([range, l]): Row => [
          `${store}: GET /v1/client/trends range=${range} (one reader)`,
          `p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms (${l.requestsPerSecond} req/s)`,
        ]),
      ];
    },
  }),
  step({
    name: 'startup',
    title: 'start-up and idle memory: through tsx (before) and compiled (after)',
    needs: ['docker'],
    needsSharedService: false,
    run: () => startupBeforeAfter(plan.startupRuns),
    rows: (st) => {
      const rows = (['tsx', 'compiled'] as const).map((name): Row => {
        const figures = st[name] as { startupMs: { p50: number }; idleRssMiB: { p50: number } };
        return [
          `start-up / idle RSS (${name === 'tsx' ? 'before: through tsx' : 'after: compiled'})`,
          `p50 ${figures.startupMs.p50} ms / ${figures.idleRssMiB.p50} MiB`,
        ];
      });
      const first = st.compiledFirstStart as { startupMs: number; idleRssMiB: number } | undefined;
      if (first) {
        rows.push([
          'start-up / idle RSS (compiled, first start: writes the code cache)',
          `${first.startupMs} ms / ${first.idleRssMiB} MiB`,
        ]);
      }
      return rows;
    },
  }),
  step({
    name: 'usage',
    title: "the CPU cost of sampling running jobs' usage",
    needs: ['docker'],
    needsSharedService: false,
    run: () => {
      const { jobs, windowSeconds, intervals } = plan.usageSampling;
      return usageSamplingCost(jobs, windowSeconds, intervals);
    },
    rows: (figures) =>
      figures.map((f): Row => [
        `${f.jobs} running jobs, usage ${f.intervalSeconds === 0 ? 'not sampled' : `sampled every ${f.intervalSeconds} s`}`,
        `service ${f.serviceCpuPercent}% of a core, Docker Engine ${f.engineCpuPercent}%`,
      ]),
  }),
];
