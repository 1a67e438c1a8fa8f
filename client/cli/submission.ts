import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { paths } from '../src';
import { UsageError } from './usage-error';

export type Submission =
  paths['/v1/client/job']['post']['requestBody']['content']['application/json'];
type EnvEntry = { value: string; sensitive?: boolean };

export interface SubmitFlags {
  file?: string;
  name?: string;
  param?: string[];
  env?: string[];
  label?: string[];
  scheduleAt?: string;
  array?: string;
  dependsOn?: string[];
  retry?: string;
}

/** `KEY=VALUE` of a repeatable flag: the value may hold `=`, the key may not be empty. */
export function keyValue(flag: string, text: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag}: must be KEY=VALUE (got "${text}")`);
  return [text.slice(0, at), text.slice(at + 1)];
}

const pairs = (flag: string, texts: string[] = []) =>
  Object.fromEntries(texts.map((text) => keyValue(flag, text)));

function positiveInteger(flag: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new UsageError(`${flag}: must be a whole number of at least 1 (got "${text}")`);
  }
  return Number(text);
}

/**
 * `--schedule-at`: an RFC 3339 time as the spec takes it, Unix seconds, or `+10m` / `+2h` /
 * `+30s` from now (sent as the time it names, with milliseconds, as the spec asks).
 */
export function scheduleAtOf(text: string, now = Date.now()): string | number {
  const relative = /^\+(\d+)([smhd])$/.exec(text);
  if (relative) {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[relative[2] as 's'];
    return new Date(now + Number(relative[1]) * unit).toISOString();
  }
  if (/^\d+$/.test(text)) return Number(text);
  return text;
}

/** `--depends-on ID` (afterok, the service's default) or `ID:afterany`, `ID:afternotok`, … */
function dependencyOf(text: string) {
  const [jobId, type] = text.split(':');
  return type ? { job_id: jobId, type } : { job_id: jobId };
}

function fileBody(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(`--file: cannot read ${file}: ${(error as NodeJS.ErrnoException).code}`);
  }
  const body: unknown = parse(text);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new UsageError(`--file: ${file} must hold one submission object (YAML or JSON)`);
  }
  return body as Record<string, unknown>;
}

/**
 * The Job Submit body: the file's (when given), then the positional arguments and flags on top,
 * a flag's entries merged into the file's. Only what was given is sent, so a submit with none of
 * the extension flags is exactly the spec's payload. The service judges the rest and its message
 * names the field.
 */
export function submissionOf(
  definition: string | undefined,
  queue: string | undefined,
  command: string[],
  flags: SubmitFlags,
  secrets: Record<string, string>,
): Submission {
  const body: Record<string, unknown> = flags.file ? fileBody(flags.file) : {};
  if (definition) body.job_definition = definition;
  if (queue) body.job_queue = queue;
  if (!body.job_definition || !body.job_queue) {
    throw new UsageError(
      'submit: needs a job definition and a queue: jobdeck submit DEFINITION QUEUE',
    );
  }
  if (flags.name) body.name = flags.name;
  if (command.length > 0) body.container_cmd = command;
  const merge = (field: string, entries: Record<string, unknown>) => {
    if (Object.keys(entries).length === 0) return;
    body[field] = { ...(body[field] as Record<string, unknown> | undefined), ...entries };
  };
  merge('container_cmd_parameter', pairs('--param', flags.param));
  const env: Record<string, EnvEntry> = {};
  for (const [name, value] of Object.entries(pairs('--env', flags.env))) env[name] = { value };
  for (const [name, value] of Object.entries(secrets)) env[name] = { value, sensitive: true };
  merge('container_env', env);
  merge('labels', pairs('--label', flags.label));
  if (flags.scheduleAt) body.schedule_at = scheduleAtOf(flags.scheduleAt);
  if (flags.array) body.array = { size: positiveInteger('--array', flags.array) };
  if (flags.dependsOn) body.depends_on = flags.dependsOn.map(dependencyOf);
  if (flags.retry) body.retry = { attempts: positiveInteger('--retry', flags.retry) };
  return body as Submission;
}
