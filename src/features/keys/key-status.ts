import type { ApiKey } from '../../../contract';

export type KeyStatus = 'active' | 'expired' | 'revoked';

export function keyStatus(key: ApiKey, now: number): KeyStatus {
  if (key.revoked_at !== null) return 'revoked';
  if (key.expires_at !== null && Date.parse(key.expires_at) <= now) return 'expired';
  return 'active';
}

/**
 * Revoking the key the console's server injects (labelled "console…" by `jobdeck start`), or
 * the one this page acts with, locks this console out until another key is set up.
 */
export function revokeWarning(key: ApiKey, actor: string | undefined): string | null {
  if (actor === `key:${key.id}`)
    return 'This is the key this console is acting with: the next request will be refused.';
  if (key.label?.toLowerCase().startsWith('console'))
    return "This looks like the console's own key: the console server injects it, and everyone using this console without signing in or typing a key is locked out until another one is set up.";
  return null;
}
