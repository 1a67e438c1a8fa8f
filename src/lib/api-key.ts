/**
 * A key typed into Settings lives in sessionStorage only: gone when the tab closes, never in
 * localStorage. Without one, the console's proxy injects its own key server-side.
 */
const KEY = 'jobdeck.apiKey';

export function readApiKey(): string | null {
  return sessionStorage.getItem(KEY);
}

export function writeApiKey(key: string | null): void {
  if (key) sessionStorage.setItem(KEY, key);
  else sessionStorage.removeItem(KEY);
}
