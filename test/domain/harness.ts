import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { catalogFromConfig } from '../../server/config/catalog';
import { configSchema } from '../../server/config/schema';
import { createJobSystem } from '../../server/jobs/job-system';
import type { BulkActionStore, InstanceRegistry } from '../../server/jobs/ports';
import type { Job } from '../../server/jobs/model';
import { FakeRuntime } from '../../server/runtime/fake/fake-runtime';
import { AesGcmSecretBox } from '../../server/secrets/secret-box';
import { openStore } from '../../server/store/open-store';
import { webhookEvents } from '../../server/webhooks/events';
import type { JobState, SubmitJobRequest } from '../../contract';

/** The image the fake engine refuses, as a real one refuses an image it does not have. */
export const MISSING_IMAGE = 'missing:image';
export const RECONCILE_MS = 50;

export const projects = {
  t: {
    queues: { default: { max_running: 4 } },
    definitions: {
      // A day: the schedule tests move the clock by hours while its jobs run.
      run: { '1': { image: 'fake:job', timeout_seconds: 86_400, stop_grace_seconds: 2 } },
      brief: { '1': { image: 'fake:job', timeout_seconds: 1, stop_grace_seconds: 1 } },
      ghost: { '1': { image: MISSING_IMAGE } },
    },
  },
};

export const INSTANCE_TIMEOUT_MS = 300;

/** Resolves once `done` holds, checked every 10 ms; throws naming `what` past the timeout. */
export async function until(
  done: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
/** The fake engine answers at once: its jobs' usage is sampled often. */
export const USAGE_SAMPLE_MS = 50;

/**
 * The real domain (dispatcher, runner, reconciler, state machine, membership) on a real SQLite
 * store and a fake engine: each test drives the engine's faults directly. More instances can
 * join the same store and engine, and any can crash (stop without a word, its process gone).
 */
export async function startDomain(
  engine = new FakeRuntime(),
  {
    reconcileIntervalMs = RECONCILE_MS,
    launchNoticedAfterMs,
    schedules,
    queues,
    maxRunning,
  }: {
    reconcileIntervalMs?: number;
    launchNoticedAfterMs?: number;
    /** Project t's recurring schedules, as its configuration declares them. */
    schedules?: Record<string, object>;
    /** Project t's queues besides `default`. */
    queues?: Record<string, object>;
    /** The service's max_running. */
    maxRunning?: number;
  } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'jobdeck-domain-'));
  const config = configSchema.parse({
    projects: {
      t: {
        ...projects.t,
        queues: { ...projects.t.queues, ...queues },
        ...(schedules && { schedules }),
      },
    },
    data_dir: dir,
    ...(maxRunning !== undefined && { max_running: maxRunning }),
  });
  const storage = await openStore(config);
  const store = storage.jobs;
  const key = randomBytes(32);
  const livePids = new Set<number>();
  let nextPid = 1;
  /** What the webhooks sent, by any instance: each answered 200 at once. */
  const sent: { url: string; id: string; body: string }[] = [];

  /** One instance; `host`: instances on one host can tell that another's process is gone. */
  function build(host: string) {
    const identity = { id: `${host}-${nextPid}`, host, pid: nextPid++ };
    livePids.add(identity.pid);
    let silent = false;
    const instances: InstanceRegistry = {
      register: (record) => storage.instances.register(record),
      heartbeat: (id, at) => (silent ? Promise.resolve() : storage.instances.heartbeat(id, at)),
      leave: (id, at) => (silent ? Promise.resolve() : storage.instances.leave(id, at)),
      list: () => storage.instances.list(),
      forget: (before) => storage.instances.forget(before),
    };
    // A crashed instance gives up nothing: its bulk actions' leases run out instead.
    const bulkActions: BulkActionStore = Object.assign(Object.create(storage.bulkActions), {
      release: (owner: string) => (silent ? Promise.resolve() : storage.bulkActions.release(owner)),
    });
    const system = createJobSystem(
      {
        store,
        schedules: storage.schedules,
        queues: storage.queues,
        bulkActions,
        retention: storage.retention,
        trends: storage.trends,
        incidents: storage.incidents,
        audit: storage.audit,
        instances,
        // A silent instance cannot reach the store: its lease lapses, as a frozen one's would.
        leases: {
          acquire: (params) =>
            silent ? Promise.reject(new Error('silent')) : storage.leases.acquire(params),
          release: (fence) => (silent ? Promise.resolve() : storage.leases.release(fence)),
          read: (name) => storage.leases.read(name),
        },
        signals: storage.signals,
        runtime: engine,
        secrets: new AesGcmSecretBox(key),
        catalog: catalogFromConfig(config),
        logger: pino({ level: 'silent' }),
        webhooks: {
          store: storage.webhooks,
          sender: {
            send: async ({ url, id, body }) => {
              sent.push({ url, id, body });
              return { delivered: true, status: 200, latencyMs: 0, error: null };
            },
          },
          render: webhookEvents,
          refusesHost: () => undefined,
          options: {
            timeoutMs: 1000,
            maxAttempts: 3,
            firstRetryMs: 100,
            replayMaxAgeMs: 86_400_000,
          },
          keepDeliveriesMs: 60_000,
        },
      },
      {
        output: { answerBytes: 64, keptBytesPerJob: 64, storedBytesPerProject: 1024 ** 2 },
        engine: 'fake',
        defaults: { cpus: 1, memoryBytes: 64 * 1024 ** 2, pidsLimit: 64 },
        reconcileIntervalMs,
        usageSampleIntervalMs: USAGE_SAMPLE_MS,
        identity,
        instanceTimeoutMs: INSTANCE_TIMEOUT_MS,
        launchNoticedAfterMs,
        isLocalProcessAlive: (pid) => livePids.has(pid),
        queueControlApi: true,
        retention: { intervalMs: 60_000, batchSize: 500 },
        idempotencyWindowMs: 86_400_000,
        keepAuditMs: 90 * 86_400_000,
        trends: { intervalMs: 60_000, batchSize: 500 },
      },
    );
    // As the service starts it where webhooks and event streams are served.
    system.feed.start();
    return Object.assign(system, {
      identity,
      /** Alive, but its heartbeat late (a long pause), until the returned function is called. */
      lateHeartbeat(): () => void {
        silent = true;
        return () => {
          silent = false;
        };
      },
      /** Gone without a word, as after kill -9: no heartbeat, no goodbye, no process. */
      async crash(): Promise<void> {
        silent = true;
        await system.stop();
        livePids.delete(identity.pid);
      },
    });
  }
  let system = build('host-a');
  const others: ReturnType<typeof build>[] = [];

  await system.start();
  const domain = {
    engine,
    store,
    /** The store's signals, as another instance sends them. */
    signals: storage.signals,
    /** The store's bulk actions, as any instance reads them. */
    bulkActions: storage.bulkActions,
    /** The store's queue controls, for a second reader of them. */
    queueControls: storage.queues,
    /** The store's schedules, which every instance reads and fires through. */
    schedules: storage.schedules,
    /** The store's pruning, as any instance's retention pass runs it. */
    retention: storage.retention,
    catalog: () => catalogFromConfig(config),
    /** What the webhooks sent. */
    sent,
    get system() {
      return system;
    },
    submit: async (payload: Partial<SubmitJobRequest> = {}) =>
      (
        await system.service.submit(
          't',
          {
            job_definition: 't::run:1',
            job_queue: 't::default',
            ...payload,
          },
          'key:test',
        )
      ).id,
    /**
     * The process dies without a word; a new one starts on the same host, store and engine, after
     * `whileDown` (the clock moved on, say).
     */
    async restart(whileDown?: () => void): Promise<void> {
      await system.crash();
      whileDown?.();
      system = build(system.identity.host);
      await system.start();
    },
    /** Another instance on the same store and engine, on a host of its own. */
    async join(host: string) {
      const other = build(host);
      others.push(other);
      await other.start();
      return other;
    },
    async waitFor(id: string, states: JobState | JobState[], timeoutMs = 20_000): Promise<Job> {
      const wanted = [states].flat();
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const job = await system.service.detail('t', id);
        if (wanted.includes(job.state)) return job;
        if (Date.now() > deadline) {
          throw new Error(`job ${id} is ${job.state} (${job.systemNote}), not ${wanted.join('/')}`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async history(id: string): Promise<JobState[]> {
      return (await store.transitions(id)).map((t) => t.to);
    },
    async close(): Promise<void> {
      await system.stop();
      for (const other of others) await other.stop();
      await storage.close();
    },
  };
  return domain;
}
