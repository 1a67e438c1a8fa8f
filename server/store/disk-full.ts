/**
 * Whether a store error is its disk being full: SQLite's SQLITE_FULL (a write, or the WAL, could
 * not grow), PostgreSQL's disk_full (53100). The service answers these 503 with a message an
 * operator can act on, where anything else unknown is a 500.
 */
export function isDiskFull(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  return error.code === 'SQLITE_FULL' || error.code === '53100';
}

/**
 * Remembers the last disk-full error a request met, so that readiness says so for a while: a
 * full disk still answers reads (and a ping), so only a failed write tells.
 */
export class DiskFullWatch {
  private lastSeenAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly rememberMs = 15_000) {}

  /** Whether `error` is the store's disk being full (remembered when it is). */
  check(error: unknown, at = Date.now()): boolean {
    if (!isDiskFull(error)) return false;
    this.lastSeenAt = at;
    return true;
  }

  full(now = Date.now()): boolean {
    return now - this.lastSeenAt < this.rememberMs;
  }
}
