import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { environmentLayer, unknownVariableWarnings, type ConfigLayer } from '../config/environment';
import { loadConfig } from '../config/load';
import type { JobdeckConfig } from '../config/schema';
import { openStore } from '../store/open-store';
import type { Store } from '../store/ports';

const DEFAULT_CONFIG = process.env.JOBDECK_CONFIG ?? 'config/jobdeck.yaml';

export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('must be a port number');
  return n;
}

export interface CommonOptions {
  config: string;
  dataDir?: string;
}

/** The file, then JOBDECK_* variables, then flags: each later one wins, and errors name their source. */
export function configFrom(
  options: CommonOptions & { port?: number; consolePort?: number },
): JobdeckConfig {
  const flags: ConfigLayer = {};
  if (options.dataDir) flags.data_dir = { value: resolve(options.dataDir), source: '--data-dir' };
  if (options.port !== undefined) flags.port = { value: options.port, source: '--port' };
  if (options.consolePort !== undefined) {
    flags.console_port = { value: options.consolePort, source: '--console-port' };
  }
  for (const warning of unknownVariableWarnings()) {
    process.stderr.write(`jobdeck: warning: ${warning}\n`);
  }
  return loadConfig(resolve(options.config), { environment: environmentLayer(), flags });
}

export async function withStore<T>(
  options: CommonOptions,
  work: (store: Store, config: JobdeckConfig) => Promise<T>,
) {
  const config = configFrom(options);
  const store = await openStore(config);
  try {
    return await work(store, config);
  } finally {
    await store.close();
  }
}

/** The options every command that reads the configuration takes. */
export function configured(command: Command): Command {
  return command
    .option('-c, --config <file>', 'configuration file', DEFAULT_CONFIG)
    .option('--data-dir <dir>', 'override data_dir');
}
