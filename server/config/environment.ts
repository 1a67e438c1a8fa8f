import { resolve } from 'node:path';

/** Values for top-level keys from outside the file, each with the name to blame when it is wrong. */
export type ConfigLayer = Record<string, { value: unknown; source: string }>;

type Kind = 'text' | 'number' | 'list' | 'path';

/**
 * One variable per top-level key that a unit file or a container sets (JOBDECK_ + the key in
 * capitals). Projects, the engine and job defaults are structures: they stay in the file.
 * store.url has its own variable (JOBDECK_DATABASE_URL, read where the store is resolved).
 */
const VARIABLES: Record<string, Kind> = {
  host: 'text',
  port: 'number',
  console_port: 'number',
  console_hosts: 'list',
  data_dir: 'path',
  reconcile_interval_seconds: 'number',
  usage_sample_interval_seconds: 'number',
  instance_timeout_seconds: 'number',
  max_running: 'number',
  log_tail_bytes: 'number',
  body_limit_bytes: 'number',
  rate_limit_per_minute: 'number',
  auth_failures_per_minute: 'number',
  secret_key: 'text',
  retired_secret_keys: 'list',
  log_level: 'text',
};

export const variableOf = (key: string) => `JOBDECK_${key.toUpperCase()}`;

/** The keys that variables can set, and their variables, for docs and tests. */
export const environmentKeys = Object.keys(VARIABLES);

function parse(kind: Kind, text: string): unknown {
  switch (kind) {
    case 'number':
      // Left as text when it is no number, so the schema's message names the variable.
      return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    case 'list':
      return text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    case 'path':
      // Relative to where the process starts, as a flag's would be (the file's are to the file).
      return resolve(text);
    case 'text':
      return text;
  }
}

/** The configuration that JOBDECK_* variables give (empty ones count as unset). */
export function environmentLayer(env: NodeJS.ProcessEnv = process.env): ConfigLayer {
  const layer: ConfigLayer = {};
  for (const [key, kind] of Object.entries(VARIABLES)) {
    const text = env[variableOf(key)];
    if (text) layer[key] = { value: parse(kind, text), source: variableOf(key) };
  }
  return layer;
}

/** Variables Jobdeck reads outside the config layer, and those of its own tests and tools. */
const OTHER_VARIABLES = new Set([
  'JOBDECK_CONFIG',
  'JOBDECK_DATABASE_URL',
  'JOBDECK_CODE_CACHE_DIR',
  'JOBDECK_FAILPOINT',
  'JOBDECK_API_URL',
  'JOBDECK_API_KEY',
  'JOBDECK_CONSOLE_PORT',
  'JOBDECK_E2E_PORT',
  'JOBDECK_CHROMIUM',
  'JOBDECK_SCREENSHOTS',
]);

/**
 * A warning for each JOBDECK_* variable Jobdeck does not read (a typo'd JOBDECK_PROT would
 * otherwise change nothing, silently), with the one it most likely meant.
 */
export function unknownVariableWarnings(env: NodeJS.ProcessEnv = process.env): string[] {
  const known = [...Object.keys(VARIABLES).map(variableOf), ...OTHER_VARIABLES];
  return Object.keys(env)
    .filter((name) => name.startsWith('JOBDECK_') && !name.startsWith('JOBDECK_TEST_'))
    .filter((name) => !known.includes(name))
    .map((name) => {
      const meant = known.find((candidate) => nearlyEqual(name, candidate));
      return `${name} is not a variable Jobdeck reads${meant ? `; did you mean ${meant}?` : ''} (ignored)`;
    });
}

/** One letter added, dropped, changed or two swapped. */
function nearlyEqual(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i += 1;
  const rest = (x: string, skip: number) => x.slice(i + skip);
  return (
    rest(a, 1) === rest(b, 1) ||
    rest(a, 1) === rest(b, 0) ||
    rest(a, 0) === rest(b, 1) ||
    (a[i] === b[i + 1] && a[i + 1] === b[i] && rest(a, 2) === rest(b, 2))
  );
}
