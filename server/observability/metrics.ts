import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { UNFINISHED_STATES, isFinalState, type JobState } from '../../contract';
import type { Job } from '../jobs/model';
import {
  EngineUnavailableError,
  RuntimeError,
  WAIT_REASONS,
  type ContainerRuntime,
  type WaitReason,
} from '../jobs/ports';
import type { ShareSnapshot } from '../jobs/share-ledger';
import type { JobCounts } from '../store/ports';

/** States a job leaves again: counted from the store at each scrape (by an index, so cheap). */

const SHARE_RESOURCES = [
  ['cpus', 'cpus'],
  ['memory_bytes', 'memoryBytes'],
  ['gpus', 'gpus'],
  ['jobs', 'jobs'],
] as const;

// Jobs run for milliseconds to hours: buckets from 10 ms to a day, roughly ×2.5 apart.
const JOB_SECONDS = [
  0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 14400, 86400,
];
const HTTP_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/**
 * Jobdeck's Prometheus metrics, one registry per service. Every label is a bounded, declared
 * value (a queue from the configuration, a state, a route template, a status code, an engine
 * operation): never a job id, a name, a URL as sent, or anything a client chose.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly transitions = new Counter({
    name: 'jobdeck_job_transitions_total',
    help: 'State changes made by this instance, by queue, from and to state',
    labelNames: ['queue', 'from', 'to'],
    registers: [this.registry],
  });
  private readonly submitToRunning = new Histogram({
    name: 'jobdeck_job_submit_to_running_seconds',
    help: 'From Job Submit to the container running (includes any schedule_at wait)',
    labelNames: ['queue'],
    buckets: JOB_SECONDS,
    registers: [this.registry],
  });
  private readonly queueWait = new Histogram({
    name: 'jobdeck_job_queue_wait_seconds',
    help: 'From the moment a job could run (submitted, or its schedule_at) to its claim of a slot',
    labelNames: ['queue'],
    buckets: JOB_SECONDS,
    registers: [this.registry],
  });
  private readonly runningToFinal = new Histogram({
    name: 'jobdeck_job_running_to_final_seconds',
    help: 'From the container running to the final state, by final state',
    labelNames: ['queue', 'state'],
    buckets: JOB_SECONDS,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'jobdeck_http_request_duration_seconds',
    help: 'API requests by method, route template and status code, until the answer was sent',
    labelNames: ['method', 'route', 'status_code'],
    buckets: HTTP_SECONDS,
    registers: [this.registry],
  });
  private readonly pruned = new Counter({
    name: 'jobdeck_jobs_pruned_total',
    help: 'Finished jobs this instance deleted past their retention, by queue',
    labelNames: ['queue'],
    registers: [this.registry],
  });
  private readonly preempted = new Counter({
    name: 'jobdeck_jobs_preempted_total',
    help: 'Borrowed jobs this instance preempted to give a lender back its quota, by queue',
    labelNames: ['queue'],
    registers: [this.registry],
  });
  private readonly engineErrors = new Counter({
    name: 'jobdeck_engine_errors_total',
    help: 'Engine calls that failed: unavailable (no answer), refused (the job’s fault), other',
    labelNames: ['operation', 'kind'],
    registers: [this.registry],
  });

  constructor(options: {
    version: string;
    counts: JobCounts;
    engineAvailable: () => boolean;
    /** Every queue declared: each reports its unfinished jobs, 0 included. */
    queues: readonly string[];
  }) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'jobdeck_build_info',
      help: 'Always 1; the version is the label',
      labelNames: ['version'],
      registers: [this.registry],
    }).set({ version: options.version }, 1);
    new Gauge({
      name: 'jobdeck_engine_up',
      help: 'Whether the container engine answered this instance’s last call (1) or not (0)',
      registers: [this.registry],
      collect() {
        this.set(options.engineAvailable() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'jobdeck_jobs',
      help: 'Unfinished jobs in the store, by state and queue (the same on every instance sharing it)',
      labelNames: ['state', 'queue'],
      registers: [this.registry],
      async collect() {
        const rows = await options.counts.countByStateAndQueue(UNFINISHED_STATES);
        this.reset();
        // Zeros are reported, not left out: a series that vanishes when idle reads as "no data".
        for (const queue of options.queues) {
          for (const state of UNFINISHED_STATES) this.set({ state, queue }, 0);
        }
        for (const { state, queue, count } of rows) this.set({ state, queue }, count);
      },
    });
  }

  /** Called by the state machine after every move this instance makes. */
  observeTransition = (job: Job, from: JobState): void => {
    const queue = job.queue;
    this.transitions.inc({ queue, from, to: job.state });
    // A moved job always has updatedAt (the move's time); now is the fallback the type asks for.
    const at = job.updatedAt ?? Date.now();
    if (from === 'runnable' && job.state === 'starting') {
      this.queueWait.observe({ queue }, seconds(at - Math.max(job.createdAt, job.scheduleAt ?? 0)));
    }
    if (job.state === 'running') {
      this.submitToRunning.observe({ queue }, seconds((job.startedAt ?? at) - job.createdAt));
    }
    if (isFinalState(job.state) && job.startedAt !== null) {
      this.runningToFinal.observe(
        { queue, state: job.state },
        seconds((job.finishedAt ?? at) - job.startedAt),
      );
    }
  };

  /** What this instance's event streams hold, read at each scrape. */
  observeEventStreams(read: () => { streams: number; bufferedBytes: number }): void {
    new Gauge({
      name: 'jobdeck_event_streams',
      help: 'Event streams open on this instance',
      registers: [this.registry],
      collect() {
        this.set(read().streams);
      },
    });
    new Gauge({
      name: 'jobdeck_event_stream_buffered_bytes',
      help: 'Bytes this instance holds for its event streams that their clients have not taken yet (the kernel’s socket buffers not counted)',
      registers: [this.registry],
      collect() {
        this.set(read().bufferedBytes);
      },
    });
  }

  /**
   * Fair share, read at each scrape: each project's due share and what it holds of each
   * capacity, what a project with a quota borrows and lends, and the runnable jobs of each queue
   * by what they wait for (0s reported).
   */
  observeShares(read: {
    shares: () => Promise<ShareSnapshot>;
    waiting: () => Promise<{ queue: string; reason: WaitReason; count: number }[]>;
    queues: readonly string[];
  }): void {
    const registers = [this.registry];
    let snapshot: Promise<ShareSnapshot> | undefined;
    // The gauges are collected together: one read of the shares per scrape.
    const once = () =>
      (snapshot ??= read.shares().finally(() => setImmediate(() => (snapshot = undefined))));
    new Gauge({
      name: 'jobdeck_share_due',
      help: 'Each project’s fair share of the capacity, 0 to 1: its weight over those of the projects with work',
      labelNames: ['project'],
      registers,
      async collect() {
        this.reset();
        for (const p of (await once()).projects) this.set({ project: p.project }, p.due);
      },
    });
    new Gauge({
      name: 'jobdeck_share_in_use',
      help: 'What each project’s jobs holding a slot hold of each capacity, 0 to 1',
      labelNames: ['project', 'resource'],
      registers,
      async collect() {
        const { capacity, projects } = await once();
        this.reset();
        for (const p of projects) {
          for (const [resource, key] of SHARE_RESOURCES) {
            if (capacity[key] > 0)
              this.set({ project: p.project, resource }, p.now[key] / capacity[key]);
          }
        }
      },
    });
    // Where quotas are set (docs/guides/quotas.md): what each project borrows and lends now.
    for (const [name, of, help] of [
      [
        'jobdeck_quota_borrowed',
        'borrowed',
        'What each project with a quota uses beyond it now, of the others’ unused quota (CPUs, bytes of memory, GPUs, jobs)',
      ],
      [
        'jobdeck_quota_lent',
        'lent',
        'What the others borrow now of each project’s unused quota (CPUs, bytes of memory, GPUs, jobs)',
      ],
    ] as const) {
      new Gauge({
        name,
        help,
        labelNames: ['project', 'resource'],
        registers,
        async collect() {
          const quotas = (await once()).quotas;
          this.reset();
          for (const [project, figures] of quotas?.projects ?? []) {
            if (!figures.quota) continue;
            for (const [resource, key] of SHARE_RESOURCES) {
              this.set({ project, resource }, figures[of][key]);
            }
          }
        },
      });
    }
    new Gauge({
      name: 'jobdeck_jobs_waiting',
      help: 'Runnable jobs by queue and what they wait for: room (no host has room), backoff, quota (their queue’s or project’s quota has no room), slot (a slot or their turn)',
      labelNames: ['queue', 'reason'],
      registers,
      async collect() {
        const rows = await read.waiting();
        this.reset();
        for (const queue of read.queues) {
          for (const reason of WAIT_REASONS) this.set({ queue, reason }, 0);
        }
        for (const { queue, reason, count } of rows) this.set({ queue, reason }, count);
      },
    });
  }

  /** Called by retention after each queue's pass that deleted jobs. */
  observePruned = (queue: string, jobs: number): void => {
    this.pruned.inc({ queue }, jobs);
  };

  /** Called by the reclaimer for each borrowed job it preempts. */
  observePreempted = (job: Job): void => {
    this.preempted.inc({ queue: job.queue });
  };

  /** HTTP latency of every answer of `app`, by the route's template (`/v1/client/job/:job_id`). */
  instrumentHttp(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      this.httpDuration.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status_code: reply.statusCode,
        },
        reply.elapsedTime / 1000,
      );
    });
  }

  /** The same engine, with each failed call counted by operation and kind. */
  instrumentRuntime(runtime: ContainerRuntime): ContainerRuntime {
    const count = this.engineErrors;
    const counted =
      <A extends unknown[], R>(operation: string, call: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        try {
          return await call(...args);
        } catch (error) {
          count.inc({ operation, kind: errorKind(error) });
          throw error;
        }
      };
    return {
      ping: counted('ping', () => runtime.ping()),
      launch: counted('launch', (spec) => runtime.launch(spec)),
      inspect: counted('inspect', (jobId) => runtime.inspect(jobId)),
      list: counted('list', () => runtime.list()),
      waitForChange: counted('wait', (workload) => runtime.waitForChange(workload)),
      stop: counted('stop', (workload, grace) => runtime.stop(workload, grace)),
      readOutput: counted('logs', (workload, window) => runtime.readOutput(workload, window)),
      remove: counted('remove', (workload) => runtime.remove(workload)),
      // What the engine may not have stays absent: no usage method is no usage reported.
      ...(runtime.usage && {
        usage: counted('usage', (workload) => runtime.usage!(workload)),
      }),
      reportsOutOfMemory: runtime.reportsOutOfMemory,
      ...(runtime.exec && {
        exec: counted('exec', (workload, request) => runtime.exec!(workload, request)),
      }),
      // Only where the engine reports hosts: without, jobs are limited by slots alone.
      ...(runtime.hosts && { hosts: counted('hosts', () => runtime.hosts!()) }),
    };
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}

const seconds = (ms: number) => Math.max(0, ms) / 1000;

function errorKind(error: unknown): 'unavailable' | 'refused' | 'other' {
  if (error instanceof EngineUnavailableError) return 'unavailable';
  if (error instanceof RuntimeError) return 'refused';
  return 'other';
}
