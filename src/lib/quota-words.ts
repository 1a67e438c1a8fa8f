import type { QuotaFiguresRecord, ShareAmounts } from '../../contract';
import { formatBytes } from './time';

const KEYS = ['cpus', 'memory_bytes', 'gpus', 'jobs'] as const;
type Key = (typeof KEYS)[number];

const rounded = (n: number) => String(Math.round(n * 100) / 100);
const UNITS: Record<Exclude<Key, 'memory_bytes'>, [string, string]> = {
  cpus: ['CPU', 'CPUs'],
  gpus: ['GPU', 'GPUs'],
  jobs: ['job', 'jobs'],
};

function amount(key: Key, value: number): string {
  if (key === 'memory_bytes') return `${formatBytes(value)} of memory`;
  const [one, many] = UNITS[key];
  return `${rounded(value)} ${value === 1 ? one : many}`;
}

const set = (a: Partial<ShareAmounts>) => KEYS.filter((k) => a[k] !== undefined);
const nonZero = (a: ShareAmounts) => KEYS.filter((k) => a[k] > 1e-9);
const listed = (a: ShareAmounts, keys: readonly Key[]) =>
  keys.map((k) => amount(k, a[k])).join(', ');

/**
 * A quota in words (docs/guides/quotas.md): "quota: holds 10 of 8 CPUs; borrows 2 CPUs" or
 * "quota: holds 1 of 8 CPUs; lends 2 CPUs".
 */
export function quotaWords(quota: QuotaFiguresRecord, inUse: ShareAmounts): string {
  const holds = set(quota.nominal)
    .map((k) =>
      k === 'memory_bytes'
        ? `${formatBytes(inUse[k])} of ${formatBytes(quota.nominal[k]!)} of memory`
        : `${rounded(inUse[k])} of ${amount(k, quota.nominal[k]!)}`,
    )
    .join(', ');
  const borrows = nonZero(quota.borrowed);
  const lends = nonZero(quota.lent);
  return [
    `quota: holds ${holds}`,
    ...(borrows.length > 0 ? [`borrows ${listed(quota.borrowed, borrows)}`] : []),
    ...(lends.length > 0 ? [`lends ${listed(quota.lent, lends)}`] : []),
  ].join('; ');
}

/** The largest fraction of its quota it holds, of the dimensions the quota sets (0 to 1 and past). */
export function quotaFraction(quota: QuotaFiguresRecord, inUse: ShareAmounts): number {
  return Math.max(
    0,
    ...set(quota.nominal).map((k) => {
      const nominal = quota.nominal[k]!;
      return nominal > 0 ? inUse[k] / nominal : inUse[k] > 0 ? 1 : 0;
    }),
  );
}
