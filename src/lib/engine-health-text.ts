import type { EngineHealthStatus } from '../../contract';
import { clockTime } from './clock-time';

/** What the header's badge and the overview say of the container engine, from whoami. */
export function engineHealthWords(
  health: EngineHealthStatus,
  engine: string,
): { badge: string; sentence: string } {
  const paused = health.dispatch === 'paused';
  if (health.reachable)
    return {
      badge: 'engine reachable',
      sentence: `The container engine (${engine}) answers; dispatch is running.`,
    };
  const since = health.unreachable_since
    ? ` since ${clockTime(Date.parse(health.unreachable_since))}`
    : '';
  return {
    badge: `engine unreachable${since}${paused ? ' · dispatch paused' : ''}`,
    sentence: paused
      ? `The container engine (${engine}) has not answered${since}. Dispatch is paused: no job starts; runnable jobs wait, and running jobs are settled once it answers again.`
      : `The container engine (${engine}) has not answered its calls${since}, though it answers a ping: jobs may be slow to start or to end.`,
  };
}
