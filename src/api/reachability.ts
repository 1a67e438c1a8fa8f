import { useSyncExternalStore } from 'react';

/**
 * Whether the service answered the console's last request: since when it has not (epoch ms), or
 * null. Kept apart from the request code so that the shell shows it without loading the schemas.
 */
let unreachableSince: number | null = null;
const listeners = new Set<() => void>();

const notify = () => listeners.forEach((listener) => listener());

/** A request got no answer at all (the connection failed): the first failure starts the outage. */
export function markUnreachable(at = Date.now()): void {
  if (unreachableSince !== null) return;
  unreachableSince = at;
  notify();
}

/** Any answer, a refusal included, means the service is there. */
export function markReachable(): void {
  if (unreachableSince === null) return;
  unreachableSince = null;
  notify();
}

export const serviceUnreachableSince = (): number | null => unreachableSince;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const useServiceUnreachableSince = () =>
  useSyncExternalStore(subscribe, serviceUnreachableSince);
