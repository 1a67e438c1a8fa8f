import { readFileSync } from 'node:fs';
import { isAbsolute, dirname, resolve } from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { formatPath } from '../../contract';
import { StartupError } from '../errors/startup-error';
import type { ConfigLayer } from './environment';
import { exampleConfigFile } from '../app/package-info';
import { closestKeyName } from './key-names';
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

/**
 * Keys an earlier release knew under another name: accepted for now, with a warning that names
 * the new one (docs/deploy.md, Upgrades). Each takes the raw file and says what it changed.
 */
const RENAMED_KEYS: {
  key: string;
  until: string;
  move(raw: Record<string, unknown>): string;
}[] = [
  {
    key: 'docker_socket',
    until: '0.3.0',
    move(raw) {
      const socket = raw.docker_socket;
      delete raw.docker_socket;
      if (raw.engine !== undefined) {
        return 'docker_socket (0.1) is ignored: engine is set; put the socket in engine.socket';
      }
      raw.engine = { type: 'docker', socket };
      return 'docker_socket (0.1) is now engine: { type: docker, socket: … }: write that instead';
    },
  },
];

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
  warn: (line: string) => void = (line) => process.stderr.write(`jobdeck: warning: ${line}\n`),
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
  const raw = { ...(doc.toJS() as Record<string, unknown>) };
  for (const renamed of RENAMED_KEYS) {
    if (raw[renamed.key] === undefined) continue;
    const line = lineOf(doc, lineCounter, [renamed.key]);
    warn(
      `${file}${line ? `:${line}` : ''}: ${renamed.move(raw)} (accepted until ${renamed.until})`,
    );
  }
  const parsed = configSchema.safeParse(withDatabaseUrlFromEnvironment({ ...raw, ...values }), {
    // A key left out is "required", not "expected string, received undefined".
    error: (issue) =>
      issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : undefined,
  });
  if (!parsed.success) {
    const at = (path: PropertyKey[]) => {
      const line = lineOf(doc, lineCounter, path);
      return `${file}${line ? `:${line}` : ''}: ${formatPath(path) || '(top level)'}`;
    };
    const lines = parsed.error.issues.flatMap((issue) => {
      const source = outside[String(issue.path[0])]?.source;
      if (source) return [`${source}: ${issue.message}`];
      // One line per unknown key, at its own line, with the key it most likely meant.
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((key) => {
          const meant = closestKeyName(key);
          return `${at([...issue.path, key])}: unknown key${meant ? `; did you mean ${meant}?` : ''}`;
        });
      }
      return [`${at(issue.path)}: ${issue.message}`];
    });
    throw new ConfigError(lines.join('\n'));
  }
  const config = parsed.data;
  // A relative data_dir in the file is relative to the file, not to wherever the process started
  // (the environment's and the flags' are made absolute where they are read).
  if (!isAbsolute(config.data_dir)) config.data_dir = resolve(dirname(file), config.data_dir);
  return config;
}
