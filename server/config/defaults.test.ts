import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { configSchema } from './schema';

interface Def {
  type: string;
  innerType?: z.ZodType;
  defaultValue?: unknown;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  in?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
}
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;
const hasDefault = (schema: z.ZodType): boolean => {
  const def = defOf(schema);
  if (def.type === 'default' || def.type === 'prefault') return true;
  return def.type === 'optional' && hasDefault(def.innerType!);
};

/** The object shapes a value of this schema may take (through unions, pipes and wrappers). */
function shapesOf(schema: z.ZodType): Record<string, z.ZodType>[] {
  const def = defOf(schema);
  if (def.shape) return [def.shape];
  if (def.options) return def.options.flatMap(shapesOf);
  const inner = def.innerType ?? def.in;
  return inner ? shapesOf(inner) : [];
}

/**
 * Each place where a default restates one: an object's default (or prefault) that sets a key
 * whose field has a default of its own, or an object's `.default` (which skips parsing, so its
 * fields' own defaults are not applied to it) over fields that have defaults.
 */
function restated(schema: z.ZodType, path: string): string[] {
  const def = defOf(schema);
  const found: string[] = [];
  if ((def.type === 'default' || def.type === 'prefault') && isPlainObject(def.defaultValue)) {
    const value = def.defaultValue;
    for (const shape of shapesOf(def.innerType!)) {
      for (const key of Object.keys(value).filter((k) => shape[k] && hasDefault(shape[k]))) {
        found.push(`${path}.${key}`);
      }
      if (def.type === 'default' && Object.values(shape).some(hasDefault)) {
        found.push(`${path} (.default over fields with defaults: use .prefault)`);
      }
    }
  }
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    found.push(...restated(field, path ? `${path}.${key}` : key));
  }
  for (const inner of [def.innerType, def.in, def.valueType, def.element, ...(def.options ?? [])]) {
    if (inner) found.push(...restated(inner, path));
  }
  return [...new Set(found)];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

describe('the configuration schema', () => {
  it('states every default once: a section defaults to {} and its fields fill it', () => {
    expect(restated(configSchema, '')).toEqual([]);
  });

  it('still fills every section from its fields when the file leaves it out', () => {
    const config = configSchema.parse({ projects: {} });
    expect(config.engine).toEqual({
      type: 'docker',
      socket: '/var/run/docker.sock',
      init: true,
      capacity: { reserve_cpus: 0 },
    });
    expect(config.store).toEqual({ type: 'sqlite', path: 'jobdeck.sqlite' });
    expect(config.job_defaults).toEqual({ memory: 512 * 1024 ** 2, cpus: 1, pids_limit: 512 });
    expect(config.retention).toEqual({
      keep_finished_jobs: 14 * 86_400_000,
      prune_every_seconds: 60,
      batch_size: 200,
    });
    expect(config.http_timeouts).toEqual({
      headers_seconds: 10,
      request_seconds: 30,
      keep_alive_seconds: 5,
    });
    expect(config.events).toEqual({ streams_per_key: 4, heartbeat_seconds: 15 });
    expect(config.metrics).toEqual({ on_api_port: false, host: '127.0.0.1' });
    expect(config.job_output).toEqual({
      max_bytes_per_job: 10 * 1024 ** 2,
      max_bytes_per_project: 256 * 1024 ** 2,
    });
  });
});
