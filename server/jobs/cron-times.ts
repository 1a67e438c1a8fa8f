import type { Cron } from 'croner';

/**
 * The cron's latest time at or before `at`. Cron times are whole seconds, and croner's
 * previousRuns gives those before the reference's whole second: a reference one second on
 * includes the time `at` falls in (without it, every firing came a second late).
 */
export function latestAtOrBefore(cron: Cron, at: number): Date | undefined {
  return cron.previousRuns(1, new Date(Math.floor(at / 1000) * 1000 + 1000))[0];
}
