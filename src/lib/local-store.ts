import { useSyncExternalStore } from 'react';

/**
 * A JSON value in localStorage that React components can subscribe to, kept in sync across
 * tabs. Callers must never put a sensitive value in one.
 */
export function createLocalStore<T>(key: string, fallback: T) {
  const listeners = new Set<() => void>();
  let cachedRaw: string | null | undefined;
  let cachedValue: T = fallback;

  const read = (): T => {
    const raw = localStorage.getItem(key);
    if (raw !== cachedRaw) {
      cachedRaw = raw;
      try {
        cachedValue = raw === null ? fallback : (JSON.parse(raw) as T);
      } catch {
        cachedValue = fallback;
      }
    }
    return cachedValue;
  };
  const notify = () => listeners.forEach((listener) => listener());
  const write = (update: T | ((current: T) => T)) => {
    const next = typeof update === 'function' ? (update as (current: T) => T)(read()) : update;
    localStorage.setItem(key, JSON.stringify(next));
    notify();
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    const onStorage = (event: StorageEvent) => {
      if (event.key === key) listener();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  };
  return {
    read,
    write,
    use: () => useSyncExternalStore(subscribe, read),
  };
}
