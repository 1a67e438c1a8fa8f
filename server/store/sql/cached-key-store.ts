import type { Signals } from '../../jobs/ports';
import type { KeyStore, NewApiKey, Principal } from '../ports';
import { keyHashOf, type ActiveKey, type SqlKeyStore } from './key-store';

/**
 * How long an instance trusts a key it read without reading it again. A revocation reaches every
 * instance at once through the store's signals; this bounds how long one that missed the signal
 * (its listening connection was down) still takes the key.
 */
export const KEY_CACHE_MS = 1_000;

/** Enough for every key of a large team; past it the oldest entry goes, not the map's bound. */
const MAX_CACHED_KEYS = 10_000;

interface CachedKey {
  principal: Principal;
  /** The sooner of the read's age limit and the key's own expiry. */
  validUntil: number;
}

/**
 * The key store for a database across the network: every request of the API names a key, and
 * reading it was a round trip and a transaction of its own before the request's real work. Only
 * keys that authenticated are kept (a guess costs a read, as before, and fills nothing); a key's
 * expiry holds to the millisecond; a revocation on any instance empties every instance's cache.
 */
export class CachedKeyStore implements KeyStore {
  private readonly cached = new Map<string, CachedKey>();
  /** Bumped by every revocation: a read that began before one must not be kept after it. */
  private generation = 0;

  constructor(
    private readonly keys: SqlKeyStore,
    private readonly signals: Signals,
  ) {
    signals.subscribe((signal) => {
      if (signal.kind === 'keys') this.forgetAll();
    });
  }

  create(project: string, key: NewApiKey) {
    return this.keys.create(project, key);
  }

  createWithin(project: string, key: NewApiKey, activeAtMost: number) {
    return this.keys.createWithin(project, key, activeAtMost);
  }

  list(project?: string) {
    return this.keys.list(project);
  }

  async revoke(id: string, project?: string) {
    const existed = await this.keys.revoke(id, project);
    this.forgetAll();
    // Sent before revoke answers. Unsent (the database just went away), the others' caches
    // still end within KEY_CACHE_MS; the revocation itself is already stored.
    await this.signals.publish({ kind: 'keys' }).catch(() => undefined);
    return existed;
  }

  async authenticate(key: string): Promise<Principal | undefined> {
    const keyHash = keyHashOf(key);
    const now = Date.now();
    const hit = this.cached.get(keyHash);
    if (hit && now < hit.validUntil) return hit.principal;
    this.cached.delete(keyHash);
    const generation = this.generation;
    const active = await this.keys.activeKey(keyHash);
    if (active && generation === this.generation) this.keep(keyHash, active, now);
    return active?.principal;
  }

  private keep(keyHash: string, active: ActiveKey, now: number) {
    if (this.cached.size >= MAX_CACHED_KEYS) {
      const oldest = this.cached.keys().next();
      if (!oldest.done) this.cached.delete(oldest.value);
    }
    const validUntil = Math.min(now + KEY_CACHE_MS, active.expiresAt ?? Infinity);
    this.cached.set(keyHash, { principal: active.principal, validUntil });
  }

  private forgetAll() {
    this.generation += 1;
    this.cached.clear();
  }
}
