import { resolve } from 'node:path';
import { Command } from 'commander';
import { definitionRefOf, queueRefOf } from '../../contract';
import { SecretKeyMissingError, type Logger } from '../jobs/ports';
import { RetentionPruner } from '../jobs/retention';
import { catalogFromConfig } from '../config/catalog';
import { ConfigError } from '../config/load';
import type { JobdeckConfig } from '../config/schema';
import { saveCodeCache } from './code-cache';
import { addKeyCommands } from './key-commands';
import { addUserCommands } from './user-commands';
import { configFrom, configured, port, withStore, type CommonOptions } from './options';
import { startJobdeck, type ConsoleKey } from '../app/jobdeck';
import { StartupError } from '../errors/startup-error';
import { resealAll } from '../secrets/rotate';
import { openSecretBox, replaceKeyFile } from '../secrets/secret-box';
import { backupStore } from '../store/open-store';
import { packageVersion } from '../app/package-info';

/** A command's own lines say what it did; the domain's log lines are the service's. */
const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** How long a stop may take to answer requests under way before the process just exits. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * The console's key is shown once, on the start that created it; every later start says where it
 * is, so a live key does not sit in every log that captured the service's output.
 */
function keyLine({ project, key, file, created }: ConsoleKey): string {
  return created
    ? `  API key for project "${project}": ${key}  (shown only now; kept in ${file}, mode 0600)`
    : `  API key for project "${project}": in ${file} (mode 0600), or create one: jobdeck keys create --project ${project}`;
}

/** A submit to try, of the key's project's first definition and queue (none when it has neither). */
function tryLine(config: JobdeckConfig, project: string, apiUrl: string): string[] {
  const settings = config.projects[project];
  const [name, versions] = Object.entries(settings?.definitions ?? {})[0] ?? [];
  const version = Object.keys(versions ?? {})[0];
  const queue = Object.keys(settings?.queues ?? {})[0];
  if (!name || !version || !queue) return [];
  const body = JSON.stringify({
    job_definition: definitionRefOf({ project, name, version }),
    job_queue: queueRefOf({ project, name: queue }),
  });
  return [
    `  Try:     curl -s -X POST ${apiUrl}/v1/client/job -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '${body}'`,
  ];
}

const program = new Command('jobdeck')
  .description('Containerized batch jobs: service and console')
  .version(packageVersion)
  .addHelpText(
    'after',
    '\nClient commands, for a running service (JOBDECK_URL, JOBDECK_API_KEY; docs/cli.md):\n  submit, watch, logs, cancel, ls, get, retry, completion   (jobdeck <command> --help)',
  );

configured(program.command('start'))
  .description('run the service (API, scheduler, runner) and the console in one process')
  .option('--port <port>', 'override port (API)', port)
  .option('--console-port <port>', 'override console_port', port)
  .option('--no-console', 'serve the API only')
  .action(
    async (options: CommonOptions & { port?: number; consolePort?: number; console: boolean }) => {
      const config = configFrom(options);
      const jobdeck = await startJobdeck(config, { withConsole: options.console });
      const lines = [
        `Jobdeck is running (data in ${config.data_dir})`,
        `  API:     ${jobdeck.apiUrl}/v1  (OpenAPI: ${jobdeck.apiUrl}/v1/openapi.json)`,
        jobdeck.consoleUrl ? `  Console: ${jobdeck.consoleUrl}` : '  Console: off (--no-console)',
        ...(jobdeck.metricsUrl ? [`  Metrics: ${jobdeck.metricsUrl}`] : []),
        keyLine(jobdeck.consoleKey),
        ...tryLine(config, jobdeck.consoleKey.project, jobdeck.apiUrl),
      ];
      // Before the address is out, so that a stop asked from then on is a clean one.
      const stop = (signal: NodeJS.Signals) => {
        process.stderr.write(
          `jobdeck: ${signal}: stopping (running containers keep running and are adopted at the next start)\n`,
        );
        // A second signal, or a close that hangs, ends the process at once; nothing is lost either way.
        process.once(signal, () => process.exit(1));
        setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
        void jobdeck.close().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      process.stdout.write(`${lines.join('\n')}\n`);
      // Now that it holds what start-up compiled; a stop asked meanwhile waits for it
      // (dist/server/cli.js only, and only on a start without a cache).
      saveCodeCache();
    },
  );

configured(program.command('dev'))
  .description('run the service and the Vite dev server (hot reload) for working on the console')
  .action(async (options: CommonOptions) => {
    // Vite is a development dependency: an installed package has none.
    const vite = await import('vite').catch(() => {
      throw new StartupError(
        'dev: needs a checkout of Jobdeck with its development dependencies (npm ci); an installed package runs: jobdeck start',
      );
    });
    const config = configFrom(options);
    const jobdeck = await startJobdeck(config, { withConsole: false });
    // vite.config.ts reads these to proxy /v1 and inject the key server-side.
    process.env.JOBDECK_API_URL = jobdeck.apiUrl;
    process.env.JOBDECK_API_KEY = jobdeck.consoleKey.key;
    const server = await vite.createServer({
      server: { port: config.console_port, host: config.host },
    });
    await server.listen();
    process.stdout.write(
      `Jobdeck dev: API ${jobdeck.apiUrl}/v1, console ${server.resolvedUrls?.local[0] ?? ''}\n`,
    );
  });

addKeyCommands(program);
addUserCommands(program);

const secrets = program
  .command('secrets')
  .description('the key that seals sensitive env values: rotate it without losing a value');

configured(secrets.command('new-key'))
  .description(
    'with key files (no secret_key configured): make a new current key, keep the old one as retired',
  )
  .action((options: CommonOptions) => {
    const config = configFrom(options);
    if (config.secret_key) {
      throw new ConfigError(
        'secret_key is configured: put the new key in secret_key and the old one in retired_secret_keys instead',
      );
    }
    const replaced = replaceKeyFile(config.data_dir);
    if (!replaced) {
      throw new ConfigError(
        `no key file in ${config.data_dir} yet: the first start makes one (nothing is sealed before it), so there is nothing to rotate`,
      );
    }
    process.stdout.write(
      `new current key ${replaced.currentId}; ${replaced.retiredId} retired (still opens its values). Restart the service, then run: jobdeck secrets rotate\n`,
    );
  });

configured(secrets.command('rotate'))
  .description('seal every stored sensitive value again with the current key')
  .action(async (options: CommonOptions) => {
    await withStore(options, async (store, config) => {
      const box = openSecretBox(config);
      const report = await resealAll(store.sealedEnv, store.webhooks, box).catch(
        (error: unknown) => {
          if (!(error instanceof SecretKeyMissingError)) throw error;
          throw new ConfigError(
            `secrets rotate: a stored value was sealed with key ${error.keyId}, which is not configured: put it back in retired_secret_keys (or data_dir/secret.key.retired) and run rotate again; what was sealed again so far stays so`,
          );
        },
      );
      const { webhookSecrets } = report;
      const webhooks =
        webhookSecrets.of > 0
          ? `, and ${webhookSecrets.resealed} of ${webhookSecrets.of} webhook secrets`
          : '';
      process.stdout.write(
        `${report.resealed} values sealed again with key ${box.currentKeyId} (${report.current} were already), in ${report.jobs} jobs${webhooks}; no stored value needs a retired key now\n`,
      );
    });
  });

configured(program.command('backup <file>'))
  .description(
    'copy the SQLite store to <file> (0600), safe while the service runs; PostgreSQL: use pg_dump',
  )
  .action(async (file: string, options: CommonOptions) => {
    const config = configFrom(options);
    const started = Date.now();
    const source = await backupStore(config, resolve(file));
    process.stdout.write(
      `backed up ${source} to ${resolve(file)} in ${Date.now() - started} ms; its sensitive values open only with the secret key (secret_key, or secret.key and secret.key.retired in data_dir): keep a copy of that too, stored apart\n`,
    );
  });

/** Bytes as a person reads them. */
const mebibytes = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
const isoOrNone = (at: number | null) => (at === null ? '-' : new Date(at).toISOString());

configured(program.command('prune'))
  .description(
    'delete the finished jobs past their retention now (what the service does every retention.prune_every_seconds)',
  )
  .option('--dry-run', 'print what would be deleted, per queue, and delete nothing')
  .option(
    '--vacuum',
    'SQLite: rewrite the file first so that freed space goes back to the file system (once, for a file created before retention existed; with the service stopped)',
  )
  .action(async (options: CommonOptions & { dryRun?: boolean; vacuum?: boolean }) => {
    await withStore(options, async (store, config) => {
      const catalog = catalogFromConfig(config);
      const pruner = new RetentionPruner(store.retention, catalog, silentLogger, {
        intervalMs: config.retention.prune_every_seconds * 1000,
        batchSize: config.retention.batch_size,
        audit: { store: store.audit, keepMs: config.audit.keep_days * 86_400_000 },
        deliveries: {
          store: store.webhooks,
          keepMs: config.webhooks.keep_deliveries_days * 86_400_000,
        },
        trends: store.trends,
      });
      const forever = catalog.queuesByPriority.filter((queue) => queue.keepFinishedMs === null);
      const out = (line: string) => process.stdout.write(`${line}\n`);
      if (options.dryRun) {
        out('queue\tjobs\tfinished before\toldest finished');
        for (const plan of await pruner.plan()) {
          out(
            `${plan.queue}\t${plan.jobs}\t${isoOrNone(plan.before)}\t${isoOrNone(plan.oldestFinishedAt)}`,
          );
        }
        for (const queue of forever) out(`${queue.ref}\t0\tkept forever\t-`);
        process.stderr.write('dry run: nothing deleted\n');
        return;
      }
      if (options.vacuum) {
        if (!store.vacuum) {
          throw new ConfigError(
            '--vacuum: the store is PostgreSQL, whose autovacuum reuses freed space by itself',
          );
        }
        const { beforeBytes, afterBytes } = await store.vacuum();
        process.stderr.write(
          `vacuumed: ${mebibytes(beforeBytes)} → ${mebibytes(afterBytes)}; space that retention frees now goes back to the file system\n`,
        );
      }
      const started = Date.now();
      const { pruned, reclaimedBytes } = await pruner.pass();
      for (const { queue, jobs } of pruned) out(`${queue}\t${jobs} deleted`);
      const total = pruned.reduce((sum, queue) => sum + queue.jobs, 0);
      process.stderr.write(
        `deleted ${total} finished job${total === 1 ? '' : 's'} in ${Date.now() - started} ms; ${mebibytes(reclaimedBytes)} given back to the file system\n`,
      );
    });
  });

program
  .command('openapi')
  .description('print the OpenAPI 3.1 document')
  .action(async () => {
    const { buildOpenApiDocument } = await import('../../contract/openapi');
    process.stdout.write(`${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  });

program.parseAsync().catch((error: unknown) => {
  // Start-up and configuration problems are the admin's to fix: say what, not where in our code.
  // Anything else is unexpected; its message still fits on a line, and the stack goes to the log
  // of a running service, never to a terminal that asked for a start.
  const message =
    error instanceof StartupError
      ? error.message
      : `unexpected error: ${(error as Error).message ?? String(error)}`;
  process.stderr.write(`jobdeck: ${message}\n`);
  process.exit(1);
});
