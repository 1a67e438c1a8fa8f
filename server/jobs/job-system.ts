import { JobExec } from './job-exec';
import { ArraySettler } from './arrays';
import { Assignment } from './assignment';
import { AuditTrail } from './audit';
import { Reclaimer } from './preemption';
import { BulkActions } from './bulk-actions';
import type { Catalog } from './catalog';
import { HostCapacity } from './capacity';
import { ChangeFeed } from './change-feed';
import { DispatchLease } from './dispatch-lease';
import { Dispatcher } from './dispatcher';
import { Handout, launchGiven } from './handout';
import { EngineHealth } from './engine-health';
import { IncidentLog } from './incidents';
import { WaitingNotes } from './waiting-notes';
import { JobLogs, type OutputLimits } from './job-logs';
import { readHosts } from './hosts-view';
import { ShareLedger } from './share-ledger';
import { JobService } from './job-service';
import { JobReadModel } from './read-model';
import { Membership, type InstanceIdentity } from './membership';
import type {
  AuditStore,
  BulkActionStore,
  ContainerRuntime,
  InstanceRegistry,
  JobStore,
  LeaseStore,
  Logger,
  QueueControlStore,
  RetentionStore,
  ScheduleStore,
  SecretBox,
  Signals,
  WebhookSender,
  WebhookStore,
  TrendStore,
  IncidentStore,
} from './ports';
import { QueueControls } from './queue-controls';
import { Reconciler } from './reconciler';
import { RetentionPruner, type RetentionOptions } from './retention';
import type { ContainerDefaults } from './container-limits';
import { Runner } from './runner';
import { UsageSampler } from './usage-sampler';
import { Scheduler } from './scheduler';
import { KeyedSerial } from './serial';
import {
  TrendRoller,
  readTrends,
  recentRunTimes,
  type TrendRollerOptions,
  type TrendsReader,
} from './trends';
import { JobStateMachine } from './state-machine';
import type { RelayOptions } from './webhook-delivery';
import { WebhookRelay } from './webhook-relay';
import { Webhooks, type EventRenderer, type HostPolicy } from './webhooks';

/** What webhooks need from outside the domain: their table, outbound HTTP, the wire format. */
export interface WebhookWiring {
  store: WebhookStore;
  sender: WebhookSender;
  render: EventRenderer;
  refusesHost: HostPolicy;
  options: RelayOptions;
  /** Ended deliveries are kept this long for the delivery log (the retention pass deletes them). */
  keepDeliveriesMs: number;
}

export interface JobSystemPorts {
  store: JobStore;
  schedules: ScheduleStore;
  queues: QueueControlStore;
  bulkActions: BulkActionStore;
  retention: RetentionStore;
  trends: TrendStore;
  incidents: IncidentStore;
  audit: AuditStore;
  instances: InstanceRegistry;
  /** The dispatcher lease: one instance at a time claims jobs for all. */
  leases: LeaseStore;
  signals: Signals;
  runtime: ContainerRuntime;
  secrets: SecretBox;
  catalog: Catalog;
  logger: Logger;
  /** Left out where webhooks are not served (extensions off). */
  webhooks?: WebhookWiring;
}

export interface JobSystemOptions {
  output: OutputLimits;
  /** The kind of engine `runtime` is, for the execution details. */
  engine: string;
  defaults: ContainerDefaults;
  reconcileIntervalMs: number;
  /** How often each running job's usage is sampled; 0: never. */
  usageSampleIntervalMs: number;
  identity: InstanceIdentity;
  /** How long an instance may stay silent before another takes over its jobs. */
  instanceTimeoutMs: number;
  /** How long a launch may be with the engine before its job is settled anyway (tests shorten it). */
  launchNoticedAfterMs?: number;
  isLocalProcessAlive: (pid: number) => boolean;
  /** Whether operators pause queues and change max_running through the API (the extensions). */
  queueControlApi: boolean;
  retention: RetentionOptions;
  /** How long a Job Submit's Idempotency-Key holds. */
  idempotencyWindowMs: number;
  /** How long the audit trail's events are kept. */
  keepAuditMs: number;
  trends: TrendRollerOptions;
}

// A launch: engine calls of 15 s timeouts each (create, a start asked up to three times on a slow
// engine, inspects) and a wait of up to 10 s for a name being freed; past two minutes, stuck.
const LAUNCH_NOTICED_AFTER_MS = 120_000;

export type JobSystem = ReturnType<typeof createJobSystem>;

/** The domain, wired: what the service runs, and what tests run against a fake engine. */
export function createJobSystem(ports: JobSystemPorts, options: JobSystemOptions) {
  const { store, schedules, instances, signals, runtime, secrets, catalog, logger } = ports;
  const owner = options.identity.id;
  const machine = new JobStateMachine(store, owner);
  // An engine stop can kill containers up to one interval before a pass notices it. A pass
  // records the engine's answer every interval; five missed (10 s at least) is a hang.
  const health = new EngineHealth(
    logger,
    options.reconcileIntervalMs + 1000,
    Math.max(10_000, 5 * options.reconcileIntervalMs),
  );
  const logs = new JobLogs(runtime, store, secrets, options.output);
  const usage = new UsageSampler(runtime, store, logger, options.usageSampleIntervalMs);
  const membership = new Membership(
    instances,
    store,
    options.identity,
    options.instanceTimeoutMs,
    options.isLocalProcessAlive,
    logger,
  );
  const runner = new Runner({
    runtime,
    machine,
    store,
    secrets,
    health,
    signals,
    logger,
    logs,
    usage,
    options: {
      defaults: options.defaults,
      owner,
      launchNoticedAfterMs: options.launchNoticedAfterMs ?? LAUNCH_NOTICED_AFTER_MS,
      ownershipInDoubt: () => membership.ownershipInDoubt(),
    },
  });
  const locks = new KeyedSerial();
  const incidents = new IncidentLog({ store: ports.incidents, jobs: store, logger });
  // An outage's window starts where its exits start counting as the engine's (wasDownAt).
  health.onChange((available) =>
    incidents.engineChanged(available, health.outageStartedAt ?? Date.now()),
  );
  const controls = new QueueControls({
    store: ports.queues,
    catalog,
    signals,
    logger,
    configRules: !options.queueControlApi,
    incidents,
  });
  const capacity = new HostCapacity(runtime, options.defaults);
  const lease = new DispatchLease({
    leases: ports.leases,
    holder: owner,
    logger,
    onChange: (held) => dispatcher.leaseChanged(held),
  });
  const handout = new Handout({ store, runner, locks, signals, logger, instanceId: owner });
  const shares = new ShareLedger({
    store,
    catalog,
    controls,
    capacity,
    fallback: options.defaults,
    logger,
  });
  const audit = new AuditTrail(ports.audit, logger);
  const reclaimer = new Reclaimer({ store, catalog, controls, capacity, runner, logger });
  const dispatcher = new Dispatcher({
    store,
    machine,
    catalog,
    controls,
    runner,
    health,
    capacity,
    shares,
    locks,
    signals,
    logger,
    instanceId: options.identity.id,
    lease,
    assignment: new Assignment(owner, () => membership.liveMembers()),
    handout,
    reclaimer,
  });
  const arrays = new ArraySettler({
    store,
    machine,
    runner,
    dispatch: () => dispatcher.kick(),
    logger,
  });
  const reconciler = new Reconciler({
    runtime,
    store,
    runner,
    health,
    locks,
    membership,
    logger,
    intervalMs: options.reconcileIntervalMs,
    launchGiven: (jobs) => launchGiven(runner, owner, jobs),
    afterPass: () => {
      // A lost signal of a queue change is caught up here; a change found kicks again.
      void controls.refresh();
      dispatcher.kickHere();
      scheduler.kick();
      void arrays.settleAll();
      bulk.kick();
    },
  });
  const reads = new JobReadModel({
    store,
    catalog,
    waiting: new WaitingNotes({ store, catalog, controls, health, shares }),
    health,
    output: logs,
    controls,
    runTimes: (queue) => recentRunTimes(ports.trends, queue),
    options: { engine: options.engine, defaults: options.defaults },
  });
  const service = new JobService({
    store,
    machine,
    catalog,
    dispatcher,
    runner,
    secrets,
    reads,
    idempotencyWindowMs: options.idempotencyWindowMs,
    capacity,
  });
  const scheduler = new Scheduler({
    schedules,
    catalog,
    secrets,
    machine,
    dispatcher,
    cancel: (project, id, by) => service.cancel(project, id, by),
    logger,
  });
  const bulk = new BulkActions({
    store,
    actions: ports.bulkActions,
    cancel: (project, id, by) => service.cancel(project, id, by),
    resubmit: async (project, id, by, labels) =>
      (await service.resubmit(project, id, {}, by, labels)).id,
    logger,
    owner,
    // As long as another instance waits before it takes over a silent one's jobs.
    leaseMs: options.instanceTimeoutMs,
  });
  const feed = new ChangeFeed(store, machine, signals, logger);
  const relay =
    ports.webhooks &&
    new WebhookRelay({
      ...ports.webhooks,
      webhooks: ports.webhooks.store,
      store,
      feed,
      secrets,
      logger,
    });
  const webhooks =
    ports.webhooks &&
    new Webhooks({
      webhooks: ports.webhooks.store,
      store,
      catalog,
      secrets,
      render: ports.webhooks.render,
      refusesHost: ports.webhooks.refusesHost,
      kick: () => relay?.kick(),
      follow: () => relay?.follow(),
    });
  const retention = new RetentionPruner(ports.retention, catalog, logger, {
    ...options.retention,
    audit: { store: ports.audit, keepMs: options.keepAuditMs },
    trends: ports.trends,
    incidents: ports.incidents,
    ...(ports.webhooks && {
      deliveries: { store: ports.webhooks.store, keepMs: ports.webhooks.keepDeliveriesMs },
    }),
  });
  const roller = new TrendRoller(ports.trends, logger, options.trends);
  const trends: TrendsReader = async (project, queue, range) => {
    const read = await readTrends(ports.trends, catalog, project, queue, range);
    const from = read.points[0]!.start;
    return { ...read, incidents: await incidents.windows(project, queue, from, Date.now()) };
  };
  return {
    /** The spec's three operations: submit, detail, cancel. */
    service,
    /** Every other read of jobs (lists, counts, queues, logs, the event streams' changes). */
    reads,
    /** The engine's hosts, each with what jobs hold of it and the project's jobs there. */
    hosts: (project: string) => readHosts({ store, capacity, fallback: options.defaults }, project),
    /** Every project's and queue's fair share now. */
    shares: async () => ({
      ...(await shares.snapshot()),
      halfLifeSeconds: catalog.fairShare.halfLifeMs / 1000,
    }),
    /** Every project's and queue's last day by hour. */
    shareHistory: () => shares.lastDay(),
    /** Runnable jobs by queue and what they wait for (a quota's hold told from a slot's). */
    waitingByReason: () => shares.waitingByReason(),
    scheduler,
    /** Pause, resume and slot limits of queues, as operators change them. */
    controls,
    /** Actions on every job a filter matches. */
    bulk,
    /** A project's webhooks, where they are served. */
    webhooks,
    machine,
    health,
    reconciler,
    /** The state changes for event streams; started only where the extensions are served. */
    feed,
    /** A queue's jobs ended per hour or day and their waiting and run times. */
    trends,
    /** Who changed what: recorded by the routes (and sign-in), written in batches. */
    audit,
    /** Commands run in running jobs, where the engine can. */
    exec: new JobExec(store, runtime, options.engine),
    /** Whether this instance holds the dispatcher lease now. */
    dispatching: () => lease.fence !== undefined,
    /** Lent quota taken back at once: each job it preempts is heard of (metrics). */
    reclaimer,
    /**
     * Joins the instances on the store, recovers what the last run left (the first reconcile
     * pass: adopt, record, requeue, take over lost instances' jobs), then dispatches.
     */
    async start(): Promise<void> {
      await membership.join();
      await controls.start();
      await reconciler.start();
      // An outage window left open by an instance that died during it ends here at the latest.
      if (health.available) incidents.engineChanged(true);
      // After the first pass: the live instances are known before any job is given out.
      await lease.start();
      dispatcher.start();
      arrays.start();
      await arrays.settleAll();
      await scheduler.start();
      bulk.kick();
      retention.start();
      await relay?.start();
      roller.start();
    },
    /**
     * Takes no new work and leaves the store's instances, so that another takes over this one's
     * jobs at once; containers keep running for it (or the next start) to adopt.
     */
    async stop(): Promise<void> {
      // The last requests were answered: what they recorded is written before the store closes.
      await audit.stop();
      await relay?.stop();
      feed.stop();
      await bulk.stop();
      await retention.stop();
      await roller.stop();
      scheduler.stop();
      arrays.stop();
      dispatcher.stop();
      handout.stop();
      await lease.stop();
      await reconciler.stop();
      runner.stop();
      usage.stop();
      await membership.leave();
    },
  };
}
