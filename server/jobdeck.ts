import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { DEFAULT_LIMITS, buildSubmitJobSchema } from '../contract';
import { catalogFromConfig } from './config/catalog';
import { ConfigError } from './config/load';
import type { JobdeckConfig } from './config/schema';
import { buildConsoleServer } from './http/console-server';
import { buildHttpApp } from './http/app';
import { createJobSystem } from './jobs/job-system';
import { isProcessAlive, thisInstance } from './instance';
import { createRuntime } from './runtime/create-runtime';
import { openSecretBox } from './secrets/secret-box';
import { openStore } from './store/open-store';
import type { KeyStore } from './store/ports';

export interface RunningJobdeck {
  apiUrl: string;
  consoleUrl: string | undefined;
  consoleKey: ConsoleKey;
  close(): Promise<void>;
}

const DIST_DIR = resolve(import.meta.dirname, '..', 'dist');

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
  const { key } = await keys.create(project, 'console (created at first start)');
  writeFileSync(file, key, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { project, key, file, created: true };
}

/** API + scheduler + runner (+ console): the whole service in one process. */
export async function startJobdeck(
  config: JobdeckConfig,
  options: { withConsole: boolean },
): Promise<RunningJobdeck> {
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

  const store = storage.jobs;
  const keys = storage.keys;
  const secrets = openSecretBox(config);
  const runtime = createRuntime(config.engine, {
    storeId: await storage.meta.storeId(),
    labels: config.container_labels,
  });
  const logger = pino({
    level: config.log_level,
    // Keys never reach the log; bodies are never logged at all (they can hold sensitive values).
    redact: ['req.headers.authorization', 'req.headers.cookie'],
  });
  if (storage.migrated.length > 0) logger.info({ migrations: storage.migrated }, 'store migrated');
  const jobs = createJobSystem(
    {
      store,
      instances: storage.instances,
      signals: storage.signals,
      runtime,
      secrets,
      catalog,
      logger,
    },
    {
      logTailBytes: config.log_tail_bytes,
      defaults: {
        cpus: config.job_defaults.cpus,
        memoryBytes: config.job_defaults.memory,
        pidsLimit: config.job_defaults.pids_limit,
      },
      reconcileIntervalMs: config.reconcile_interval_seconds * 1000,
      identity: thisInstance(),
      instanceTimeoutMs: config.instance_timeout_seconds * 1000,
      isLocalProcessAlive: isProcessAlive,
    },
  );

  const api = await buildHttpApp({
    service: jobs.service,
    keys,
    submitSchema: buildSubmitJobSchema(DEFAULT_LIMITS),
    bodyLimitBytes: config.body_limit_bytes,
    rateLimitPerMinute: config.rate_limit_per_minute,
    authFailuresPerMinute: config.auth_failures_per_minute,
    timeouts: config.http_timeouts,
    logger,
    health: async () => ({
      engine: await runtime.ping().then(
        () => 'reachable' as const,
        () => 'unreachable' as const,
      ),
      store: 'ok',
    }),
  });

  try {
    await runtime.ping();
  } catch (error) {
    await storage.close();
    throw new ConfigError((error as Error).message);
  }
  await jobs.start();
  const apiUrl = await api.listen({ host: config.host, port: config.port });

  const key = await consoleKey(keys, config);
  let consoleServer: FastifyInstance | undefined;
  let consoleUrl: string | undefined;
  if (options.withConsole) {
    consoleServer = await buildConsoleServer({
      distDir: DIST_DIR,
      apiUrl,
      apiKey: key.key,
      listenHost: config.host,
      extraHostNames: config.console_hosts,
    });
    consoleUrl = await consoleServer.listen({ host: config.host, port: config.console_port });
  }

  return {
    apiUrl,
    consoleUrl,
    consoleKey: key,
    /**
     * Takes no new requests and answers those under way, then stops dispatching; containers keep
     * running and the next start adopts them.
     */
    async close() {
      await consoleServer?.close();
      await api.close();
      await jobs.stop();
      await storage.close();
    },
  };
}
