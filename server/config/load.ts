import { readFileSync } from 'node:fs';
import { isAbsolute, dirname, resolve } from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { formatPath } from '../../contract';
import { configSchema, DATABASE_URL_VARIABLE, type JobdeckConfig } from './schema';

export class ConfigError extends Error {}

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
export function loadConfig(file: string, overrides: Partial<JobdeckConfig> = {}): JobdeckConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the configuration (${(error as Error).message})`);
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
  const parsed = configSchema.safeParse(
    withDatabaseUrlFromEnvironment({ ...(doc.toJS() as object), ...overrides }),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const line = lineOf(doc, lineCounter, issue.path);
      const keys =
        issue.code === 'unrecognized_keys' ? ` (unknown key ${issue.keys.join(', ')})` : '';
      return `${file}${line ? `:${line}` : ''}: ${formatPath(issue.path) || '(top level)'}: ${issue.message}${keys}`;
    });
    throw new ConfigError(lines.join('\n'));
  }
  const config = parsed.data;
  // A relative data_dir is relative to the configuration file, not to wherever the process started.
  if (!isAbsolute(config.data_dir)) config.data_dir = resolve(dirname(file), config.data_dir);
  return config;
}
