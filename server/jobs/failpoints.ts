/**
 * Crash points for the reliability suite: `JOBDECK_FAILPOINT=<name>` makes the process kill itself
 * (SIGKILL, no clean-up) the first time it reaches `failpoint(<name>)`. Read once at start; with the
 * variable unset every call is a no-op, so production code pays one comparison.
 */
const armed = process.env.JOBDECK_FAILPOINT;

export function failpoint(name: string): void {
  if (armed === name) process.kill(process.pid, 'SIGKILL');
}
