import { existsSync } from 'node:fs';

/**
 * Crash points for the reliability suite: `JOBDECK_FAILPOINT=<name>` makes the process kill itself
 * (SIGKILL, no clean-up) the first time it reaches `failpoint(<name>)`. With
 * `JOBDECK_FAILPOINT_ACTION=freeze` it stops itself instead (SIGSTOP: alive to the OS, silent to
 * the store, as a paused VM) until a SIGCONT, and goes on from there; with
 * `JOBDECK_FAILPOINT_ARMED_BY=<file>`, only once that file exists, so a test sets the scene first.
 * Read once at start; with the variable unset every call is a no-op, so production code pays one
 * comparison.
 */
const armed = process.env.JOBDECK_FAILPOINT;
const signal = process.env.JOBDECK_FAILPOINT_ACTION === 'freeze' ? 'SIGSTOP' : 'SIGKILL';
const armedBy = process.env.JOBDECK_FAILPOINT_ARMED_BY;
let reached = false;

export function failpoint(name: string): void {
  if (armed !== name || reached) return;
  if (armedBy !== undefined && !existsSync(armedBy)) return;
  reached = true;
  process.kill(process.pid, signal);
}
