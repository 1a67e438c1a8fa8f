import { z } from 'zod';

/** Field types several sections share. */

export const positiveInt = z.number().int('must be a whole number').positive('must be positive');
export const identifier = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be letters, digits, ".", "_" or "-"');

/** Docker-style sizes: 512m, 1g, 65536 (bytes). */
export const memorySize = z
  .union([
    z.number().int().positive(),
    z.string().regex(/^\d+[kmg]?$/i, 'must look like 512m or 1g'),
  ])
  .transform((value) => {
    if (typeof value === 'number') return value;
    const units: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
    const unit = value.slice(-1).toLowerCase();
    return units[unit] ? Number.parseInt(value, 10) * units[unit] : Number.parseInt(value, 10);
  });

/** What Swarm accepts as a placement constraint: an attribute, == or !=, a value. */
export const placementConstraint = z
  .string()
  .regex(
    /^(node\.(id|hostname|role|platform\.os|platform\.arch|labels\.[^\s=!]+)|engine\.labels\.[^\s=!]+)\s*(==|!=)\s*[^\s=!][^=!]*$/,
    'must look like node.labels.KEY==VALUE: node.id, node.hostname, node.role, node.platform.os, node.platform.arch, node.labels.KEY or engine.labels.KEY, then == or !=, then a value',
  );

/** How long finished jobs are kept unless `retention` says otherwise. */
export const DEFAULT_KEEP_FINISHED = '14d';

const PERIOD_UNITS_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
const PERIOD = /[1-9]\d{0,5}[smhd]/;
const PERIOD_PROBLEM = 'must be a period like 14d, 12h, 30m or 90s';
const KEEP_PROBLEM = `${PERIOD_PROBLEM}, or forever`;

const periodMs = (text: string) =>
  Number.parseInt(text, 10) * (PERIOD_UNITS_MS[text.slice(-1)] ?? Number.NaN);

/** A span of time: `14d`, `12h`, `30m`, `90s`; as milliseconds. */
export const period = z
  .string(PERIOD_PROBLEM)
  .regex(new RegExp(`^${PERIOD.source}$`), PERIOD_PROBLEM)
  .transform(periodMs);

/**
 * How long a finished job is kept: a period, or `forever`; as milliseconds, null for forever.
 * "Forever" is a word of its own, never a default: a store that only grows must be chosen.
 */
export const keepPeriod = z
  .string(KEEP_PROBLEM)
  .regex(new RegExp(`^(forever|${PERIOD.source})$`), KEEP_PROBLEM)
  .transform((text) => (text === 'forever' ? null : periodMs(text)));
