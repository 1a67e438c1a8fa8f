/**
 * Why a page could not be shown, and whether a reload may fix it. A chunk that cannot be fetched
 * (the service down, or an upgrade that renamed it) rejects the page's import with a TypeError
 * whose words differ by browser; Vite's preload names a stylesheet it could not load.
 */
const CHUNK_FAILURE =
  /dynamically imported module|module script|importing a module|unable to preload css|loading chunk/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_FAILURE.test(error.message);
}

/** When the console last reloaded itself for a missing chunk; no secret, only a time. */
export const RELOAD_MARKER = 'jobdeck.chunk-reload-at';
/** A second reload within this long would be a loop: the new build lacks the chunk too. */
const RELOAD_GUARD_MS = 60_000;

/**
 * Whether to reload now (and marks it): once per minute at most, so that a chunk missing from the
 * build the service now serves gives a message instead of a reload loop.
 */
export function claimReload(storage: Storage, now = Date.now()): boolean {
  const last = Number(storage.getItem(RELOAD_MARKER));
  if (Number.isFinite(last) && last > 0 && now - last < RELOAD_GUARD_MS) return false;
  storage.setItem(RELOAD_MARKER, String(now));
  return true;
}
