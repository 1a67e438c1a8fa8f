/**
 * Durations counted in fixed log-scale buckets, so that percentiles over any hours are sums of
 * their buckets: bucket 0 holds what took under FLOOR_MS, bucket i ≥ 1 holds
 * [FLOOR_MS·√2^(i−1), FLOOR_MS·√2^i), the last holds everything longer. A percentile is reported
 * as its bucket's geometric middle, so it is exact to within a factor of 2^¼ either way.
 */
const FLOOR_MS = 10;
/** From 10 ms·√2^56, past 31 days: longer than anything a month of rollups holds. */
export const LAST_BUCKET = 57;

export function bucketOf(ms: number): number {
  if (ms < FLOOR_MS) return 0;
  return Math.min(LAST_BUCKET, 1 + Math.floor(2 * Math.log2(ms / FLOOR_MS)));
}

/** The time a bucket stands for: the geometric middle of its bounds. */
export function representativeMs(bucket: number): number {
  if (bucket <= 0) return FLOOR_MS / 2;
  return FLOOR_MS * 2 ** ((bucket - 0.5) / 2);
}

/**
 * The q-quantile (0 < q ≤ 1) of the counts per bucket: the bucket holding the ⌈q·n⌉-th
 * shortest; null when nothing was counted.
 */
export function quantileMs(counts: ReadonlyMap<number, number>, q: number): number | null {
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const bucket of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(bucket)!;
    if (seen >= rank) return representativeMs(bucket);
  }
  return null;
}
