import { describe, expect, it } from 'vitest';
import { LAST_BUCKET, bucketOf, quantileMs, representativeMs } from './trend-histogram';

describe('trend histogram', () => {
  it('puts a duration in the bucket whose middle is within a factor of 2^¼ of it', () => {
    for (const ms of [10, 11, 99, 1000, 12_345, 3_600_000, 7 * 86_400_000]) {
      const ratio = representativeMs(bucketOf(ms)) / ms;
      expect(ratio).toBeGreaterThanOrEqual(2 ** -0.25 - 0.001);
      expect(ratio).toBeLessThanOrEqual(2 ** 0.25 + 0.001);
    }
  });

  it('keeps short durations in the first bucket and very long ones in the last', () => {
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(9.9)).toBe(0);
    expect(bucketOf(10)).toBe(1);
    expect(bucketOf(32 * 86_400_000)).toBe(LAST_BUCKET);
    expect(bucketOf(365 * 86_400_000)).toBe(LAST_BUCKET);
  });

  it('orders buckets as durations are ordered', () => {
    let last = -1;
    for (let ms = 1; ms < 1e10; ms *= 1.3) {
      const bucket = bucketOf(ms);
      expect(bucket).toBeGreaterThanOrEqual(last);
      last = bucket;
    }
  });

  it('finds the median and the 95th percentile by rank', () => {
    // 90 jobs of about a second, 10 of about a minute.
    const counts = new Map([
      [bucketOf(60_000), 10],
      [bucketOf(1000), 90],
    ]);
    expect(quantileMs(counts, 0.5)).toBe(representativeMs(bucketOf(1000)));
    expect(quantileMs(counts, 0.9)).toBe(representativeMs(bucketOf(1000)));
    expect(quantileMs(counts, 0.95)).toBe(representativeMs(bucketOf(60_000)));
    expect(quantileMs(new Map(), 0.5)).toBeNull();
  });
});
