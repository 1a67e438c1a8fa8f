import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { specSubmitJobSchema, submitJobSchema } from '../../contract';
import { catalogFromConfig } from '../config/catalog';
import { ConfigError } from '../config/load';
import type { JobdeckConfig } from '../config/schema';
import { buildHttpApp } from '../http/app';
import { newConsoleProof } from '../http/client-address';
import { createJobSystem } from '../jobs/job-system';
import { TREND_ROLLER_DEFAULTS } from '../jobs/trends';
import { isProcessAlive, thisInstance } from './instance';
import { createLogger } from '../observability/logging';
import { ServiceMetrics } from '../observability/metrics';
import { consoleDistDir, packageVersion } from './package-info';
import { StartupError } from '../errors/startup-error';
import { ensureWritableDirectory, listenError } from './startup-error';
import { checkSomeoneCanSignIn, consoleSignIn, type ConsoleSignIn } from './console-sign-in';
import { createRuntime } from '../runtime/create-runtime';
import { buildMetricsServer } from '../http/metrics-server';
import { PositionCodec } from '../http/positions';
import { AesGcmSecretBox, configuredKeyIds, openSecretBox } from '../secrets/secret-box';
import { DiskFullWatch } from '../store/disk-full';
import { openStore } from '../store/open-store';
import { hostPolicy } from '../webhooks/address-policy';
import { webhookEvents } from '../webhooks/events';
import { httpWebhookSender } from '../webhooks/http-sender';
import type { KeyStore, SealedEnvStore } from '../store/ports';

export interface RunningJobdeck {
  apiUrl: string;
  consoleUrl: string | undefined;
  /** Where /metrics is served, if anywhere. */
  metricsUrl: string | undefined;
  consoleKey: ConsoleKey;
  close(): Promise<void>;
}

export interface ConsoleKey {
  project: string;
  key: string;
  /** Where the key is kept (0600). */
  file: string;
  /** True only on the start that created it: the one time it may be shown. */
  created: boolean;
}

/**
 * The key the console proxy injects: created once per data directory (0600 file), so the
 * quick start has a working key and the browser never has to hold one.
 */
async function consoleKey(keys: KeyStore, config: JobdeckConfig): Promise<ConsoleKey> {
  const file = join(config.data_dir, 'console.key');
  const project = Object.keys(config.projects)[0] ?? 'default';
  if (existsSync(file)) {
    return { project, key: readFileSync(file, 'utf8').trim(), file, created: false };
  }
  const { key } = await keys.create(project, {
    label: 'console (created at first start)',
    role: 'admin',
    expiresAt: null,
    createdBy: null,
  });
  writeFileSync(file, key, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { project, key, file, created: true };
}

const reachable = (check: () => Promise<void>) =>
  check().then(
    () => 'reachable' as const,
    () => 'unreachable' as const,
  );

/**
 * Why the service must not start, when waiting or running jobs hold values sealed with a key it
 * lacks (a retired key removed before `secrets rotate`, a restore without the key file): those
 * jobs would fail one by one later. Checked before a missing key file is generated, so that a
 * restore is not handed a fresh key that opens nothing.
 */
async function keysMissingFor(
  sealedEnv: SealedEnvStore,
  config: JobdeckConfig,
): Promise<string | undefined> {
  const configured = configuredKeyIds(config);
  const jobsByKey = new Map<string, number>();
  for (const job of await sealedEnv.unfinishedSealedEnv()) {
    const ids = new Set(
      job.env.flatMap((v) => ('sealed' in v ? [AesGcmSecretBox.keyIdOfSealed(v.sealed)] : [])),
    );
    for (const id of ids) {
      if (id !== null && !configured.has(id)) jobsByKey.set(id, (jobsByKey.get(id) ?? 0) + 1);
    }
  }
  if (jobsByKey.size === 0) return undefined;
  const which = [...jobsByKey].map(([id, jobs]) => `${id} (${jobs} job${jobs === 1 ? '' : 's'})`);
  return `secret key: unfinished jobs hold values sealed with ${which.join(', ')}, not configured: put ${jobsByKey.size === 1 ? 'it' : 'them'} back (secret_key, retired_secret_keys, or data_dir/secret.key and secret.key.retired) and start again`;
}

/** API + scheduler + runner (+ console): the whole service in one process. */
export async function startJobdeck(
  config: JobdeckConfig,
  options: { withConsole: boolean },
): Promise<RunningJobdeck> {
  ensureWritableDirectory(config.data_dir);
  const storage = await openStore(config);
  const catalog = catalogFromConfig(config);
  const changed = await storage.meta.changedDefinitions(
    new Map(catalog.definitions().map((d) => [d.ref, d.fingerprint])),
  );
  if (changed.length > 0) {
    await storage.close();
    throw new ConfigError(
      `job definitions are immutable once used, but these changed: ${changed.join(', ')}; restore them and declare a new version instead`,
    );
  }

  const storeDisk = new DiskFullWatch();
  const missingKeys = await keysMissingFor(storage.sealedEnv, config);
  if (missingKeys) {
    await storage.close();
    throw new StartupError(missingKeys);
  }

  const store = storage.jobs;
  const keys = storage.keys;
  const secrets = openSecretBox(config);
  const metrics = new ServiceMetrics({
    version: packageVersion,
    counts: storage.counts,
    engineAvailable: () => jobs.health.answering(),
    queues: catalog.queuesByPriority.map((queue) => queue.ref),
  });
  const runtime = metrics.instrumentRuntime(
    await createRuntime(config.engine, {
      storeId: await storage.meta.storeId(),
      labels: config.container_labels,
      keptOutputBytesPerJob: config.job_output.max_bytes_per_job,
      projects: config.projects,
    }).catch(async (error: unknown) => {
      await storage.close();
      throw error;
    }),
  );
  // Asked now, answered while the rest is built: the engine's round trip costs start-up nothing.
  const enginePing = runtime.ping().then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  const logger = await createLogger(config.log_level);
  if (storage.migrated.length > 0) logger.info({ migrations: storage.migrated }, 'store migrated');
  storage.startUpkeep?.(logger);
  const webhookHosts = hostPolicy(config.webhooks.allowed_hosts);
  let signIn: ConsoleSignIn;
  try {
    if (options.withConsole) await checkSomeoneCanSignIn(config.auth, config.host, storage);
    signIn = consoleSignIn(config.auth, config.host, storage);
  } catch (error) {
    await storage.close();
    throw error;
  }
  const jobs = createJobSystem(
    {
      store,
      schedules: storage.schedules,
      queues: storage.queues,
      bulkActions: storage.bulkActions,
      retention: storage.retention,
      trends: storage.trends,
      incidents: storage.incidents,
      audit: storage.audit,
      instances: storage.instances,
      leases: storage.leases,
      signals: storage.signals,
      runtime,
      secrets,
      catalog,
      logger,
      ...(config.extensions && {
        webhooks: {
          store: storage.webhooks,
          sender: httpWebhookSender(webhookHosts.refusesAddress),
          render: webhookEvents,
          refusesHost: webhookHosts.refusesHost,
          options: {
            timeoutMs: config.webhooks.timeout_seconds * 1000,
            maxAttempts: config.webhooks.max_attempts,
            firstRetryMs: config.webhooks.first_retry_seconds * 1000,
            replayMaxAgeMs: config.webhooks.replay_max_age_hours * 3_600_000,
          },
          keepDeliveriesMs: config.webhooks.keep_deliveries_days * 86_400_000,
        },
      }),
    },
    {
      output: {
        answerBytes: config.log_tail_bytes,
        keptBytesPerJob: config.job_output.max_bytes_per_job,
        storedBytesPerProject: config.job_output.max_bytes_per_project,
      },
      engine: config.engine.type,
      defaults: {
        cpus: config.job_defaults.cpus,
        memoryBytes: config.job_defaults.memory,
        pidsLimit: config.job_defaults.pids_limit,
      },
      reconcileIntervalMs: config.reconcile_interval_seconds * 1000,
      usageSampleIntervalMs: config.usage_sample_interval_seconds * 1000,
      identity: thisInstance(),
      instanceTimeoutMs: config.instance_timeout_seconds * 1000,
      isLocalProcessAlive: isProcessAlive,
      queueControlApi: config.extensions,
      retention: {
        intervalMs: config.retention.prune_every_seconds * 1000,
        batchSize: config.retention.batch_size,
        onPruned: metrics.observePruned,
        sessions: signIn.sessions,
      },
      idempotencyWindowMs: config.idempotency.window,
      keepAuditMs: config.audit.keep_days * 86_400_000,
      trends: TREND_ROLLER_DEFAULTS,
    },
  );

  jobs.machine.onTransition(metrics.observeTransition);
  jobs.reclaimer.onPreempted(metrics.observePreempted);
  metrics.observeShares({
    shares: jobs.shares,
    waiting: jobs.waitingByReason,
    queues: catalog.queuesByPriority.map((queue) => queue.ref),
  });

  // Only this process's console server can vouch for a browser's address to its API.
  const consoleProof = newConsoleProof();
  const api = await buildHttpApp({
    service: jobs.service,
    reads: jobs.reads,
    scheduler: jobs.scheduler,
    controls: jobs.controls,
    bulk: jobs.bulk,
    trends: jobs.trends,
    hosts: jobs.hosts,
    shares: async () => ({ ...(await jobs.shares()), lastDay: await jobs.shareHistory() }),
    keys,
    members: storage.members,
    views: storage.views,
    audit: jobs.audit,
    // Retries are an extension: a spec-only service refuses the field like any unknown one.
    submitSchema: config.extensions ? submitJobSchema : specSubmitJobSchema,
    bodyLimitBytes: config.body_limit_bytes,
    rateLimitPerMinute: config.rate_limit_per_minute,
    authFailuresPerMinute: config.auth_failures_per_minute,
    trustedProxies: config.trusted_proxies,
    consoleProof: options.withConsole ? consoleProof : undefined,
    timeouts: config.http_timeouts,
    logger,
    extensions:
      config.extensions && jobs.webhooks
        ? {
            feed: jobs.feed,
            webhooks: jobs.webhooks,
            positions: new PositionCodec(await storage.meta.positionKey()),
            streamsPerKey: config.events.streams_per_key,
            heartbeatMs: config.events.heartbeat_seconds * 1000,
            signIn,
            exec: {
              exec: jobs.exec,
              enabledIn: new Set(
                Object.entries(config.projects)
                  .filter(([, project]) => project.exec)
                  .map(([code]) => code),
              ),
            },
          }
        : null,
    storeDisk,
    version: packageVersion,
    engine: config.engine.type,
    dispatching: () => jobs.dispatching(),
    readiness: async () => {
      const [store, pinged] = await Promise.all([reachable(storage.ping), reachable(runtime.ping)]);
      // A ping is not enough: the engine must also answer the runner's and reconciler's calls,
      // and the store take writes (a full disk still answers reads).
      const engine = pinged === 'reachable' && jobs.health.answering() ? pinged : 'unreachable';
      return { store: storeDisk.full() ? ('disk full' as const) : store, engine };
    },
    metrics,
    metricsOnApiPort: config.metrics.on_api_port,
  });

  const pingError = await enginePing;
  if (pingError) {
    await storage.close();
    throw new StartupError(
      `engine: ${pingError.message}; start the engine (systemctl start docker), or correct engine: in the configuration`,
    );
  }
  await jobs.start();
  let consoleServer: FastifyInstance | undefined;
  let metricsServer: FastifyInstance | undefined;
  /** A start that fails half-way leaves the store as a clean stop would (its jobs not orphaned). */
  const closeStarted = async () => {
    await metricsServer?.close();
    await consoleServer?.close();
    await api.close();
    await jobs.stop();
    await storage.close();
  };

  const listen = async (
    server: FastifyInstance,
    port: number,
    names: { key: string; flag?: string; variable?: string; hostKey?: string },
    host = config.host,
  ) => {
    try {
      return await server.listen({ host, port });
    } catch (error) {
      await closeStarted();
      throw listenError(error, { ...names, host, port });
    }
  };
  if (config.extensions) jobs.feed.start();
  const apiUrl = await listen(api, config.port, {
    key: 'port',
    flag: '--port',
    variable: 'JOBDECK_PORT',
  });

  const key = await consoleKey(keys, config);
  let consoleUrl: string | undefined;
  if (options.withConsole) {
    // Loaded only here: `start --no-console` and every instance behind a proxy skip its modules.
    const { buildConsoleServer } = await import('../http/console-server');
    consoleServer = await buildConsoleServer({
      distDir: consoleDistDir,
      apiUrl,
      apiKey: key.key,
      signInMode: signIn.mode,
      listenHost: config.host,
      extraHostNames: config.console_hosts,
      trustedProxies: config.trusted_proxies,
      consoleProof,
    });
    consoleUrl = await listen(consoleServer, config.console_port, {
      key: 'console_port',
      flag: '--console-port',
      variable: 'JOBDECK_CONSOLE_PORT',
    });
  }

  let metricsUrl = config.metrics.on_api_port ? `${apiUrl}/metrics` : undefined;
  if (config.metrics.port !== undefined) {
    metricsServer = buildMetricsServer({
      metrics,
      timeouts: config.http_timeouts,
      storeDisk,
    });
    const address = await listen(
      metricsServer,
      config.metrics.port,
      { key: 'metrics.port', hostKey: 'metrics.host' },
      config.metrics.host,
    );
    metricsUrl = `${address}/metrics`;
  }

  return {
    apiUrl,
    consoleUrl,
    metricsUrl,
    consoleKey: key,
    /**
     * Takes no new requests and answers those under way, then stops dispatching; containers keep
     * running and the next start adopts them.
     */
    close: closeStarted,
  };
}
