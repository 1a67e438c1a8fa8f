/** The states a job ends in: its state never changes again. */
export const ENDED_STATES = new Set(['completed', 'failed', 'cancelled', 'timeout', 'error']);

/**
 * The status `watch` (and `submit --wait`) exits with, so a CI step fails when its job did, as
 * `sbatch --wait` does: 0 for completed, the job's own exit code when it failed (1 when it had
 * none), 124 for a timeout (as GNU timeout), 130 for cancelled (as an interrupted command) and
 * 125 for an error of the engine or the service (as docker run's own failures).
 */
export function exitStatusOf(state: string, exitCode: number | null | undefined): number {
  switch (state) {
    case 'completed':
      return 0;
    case 'failed':
      return exitCode && exitCode > 0 && exitCode < 256 ? exitCode : 1;
    case 'timeout':
      return 124;
    case 'cancelled':
      return 130;
    default:
      return 125;
  }
}
