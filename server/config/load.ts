import { readFileSync } from 'node:fs';
import { isAbsolute, dirname, resolve } from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { formatPath } from '../../contract';
import { StartupError } from '../app/startup-error';
import type { ConfigLayer } from './environment';
import { exampleConfigFile } from '../app/package-info';
import { configSchema, DATABASE_URL_VARIABLE, type JobdeckConfig } from './schema';

/** A mistake in the configuration: reported as `file:line: key: reason`. */
export class ConfigError extends StartupError {}

/** `store.url` from the environment when a PostgreSQL store's entry in the file has none. */
function withDatabaseUrlFromEnvironment(raw: Record<string, unknown>): Record<string, unknown> {
  const url = process.env[DATABASE_URL_VARIABLE];
  const store = raw.store as Record<string, unknown> | null | undefined;
  if (!url || store?.type !== 'postgres' || store.url !== undefined) return raw;
  return { ...raw, store: { ...store, url } };
}

/** The line of the key at `path`, or of its nearest parent when the key is missing. */
function lineOf(doc: Document, lineCounter: LineCounter, path: PropertyKey[]): number | undefined {
  for (let depth = path.length; depth > 0; depth -= 1) {
    const node = doc.getIn(path.slice(0, depth), true) as
      { range?: [number, number, number] } | undefined;
    if (node?.range) return lineCounter.linePos(node.range[0]).line;
  }
  return undefined;
}

/**
 * Reads and validates the YAML configuration. Every problem is reported as
 * `file:line: path.to.key: reason`, so an admin can go straight to the line.
 */
export function loadConfig(
  file: string,
  layers: { environment?: ConfigLayer; flags?: ConfigLayer } = {},
): JobdeckConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `${file}: no configuration file there: pass --config FILE or set JOBDECK_CONFIG (an example to copy: ${exampleConfigFile})`
        : `${file}: cannot read the configuration (${(error as Error).message})`,
    );
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const lines = doc.errors.map((e) => {
      const line = lineCounter.linePos(e.pos[0]).line;
      return `${file}${line ? `:${line}` : ''}: ${e.message.split('\n')[0]}`;
    });
    throw new ConfigError(lines.join('\n'));
  }
  // Precedence: the file, then the environment, then flags.
  const outside: ConfigLayer = { ...layers.environment, ...layers.flags };
  const values = Object.fromEntries(Object.entries(outside).map(([key, v]) => [key, v.value]));
  const parsed = configSchema.safeParse(
    withDatabaseUrlFromEnvironment({ ...(doc.toJS() as object), ...values }),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const source = outside[String(issue.path[0])]?.source;
      if (source) return `${source}: ${issue.message}`;
      const line = lineOf(doc, lineCounter, issue.path);
      const keys =
        issue.code === 'unrecognized_keys' ? ` (unknown key ${issue.keys.join(', ')})` : '';
      return `${file}${line ? `:${line}` : ''}: ${formatPath(issue.path) || '(top level)'}: ${issue.message}${keys}`;
    });
    throw new ConfigError(lines.join('\n'));
  }
  const config = parsed.data;
  // A relative data_dir in the file is relative to the file, not to wherever the process started
  // (the environment's and the flags' are made absolute where they are read).
  if (!isAbsolute(config.data_dir)) config.data_dir = resolve(dirname(file), config.data_dir);
  return config;
}
