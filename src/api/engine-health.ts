import { useQuery } from '@tanstack/react-query';
import type { EngineHealthStatus } from '../../contract';
import { identityQuery } from './identity';

const HEALTHY_POLL_MS = 10_000;
const AWAY_POLL_MS = 5000;

/**
 * The container engine as the service sees it, from whoami (read again every 10 s, 5 s while the
 * engine is away), with the engine's kind; null from a service that does not say (whoami absent,
 * or a version without the field).
 */
export function useEngineHealth(
  enabled: boolean,
): { health: EngineHealthStatus; engine: string } | null {
  const identity = useQuery({
    ...identityQuery,
    enabled,
    refetchInterval: (query) =>
      query.state.data?.service.engine_health?.reachable === false ? AWAY_POLL_MS : HEALTHY_POLL_MS,
  }).data;
  const health = identity?.service.engine_health;
  return identity && health ? { health, engine: identity.service.engine } : null;
}
