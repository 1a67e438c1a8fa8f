import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/** The cluster of scripts/slurm-up.sh (its paths from scripts/slurm-env.sh). */
const RUN_DIR = process.env.JDSLURM_RUN_DIR ?? '/run/jobdeck-slurm';
const STATE_DIR = process.env.JDSLURM_STATE_DIR ?? '/var/lib/jobdeck-slurm';
export const SLURM_CONF = `${RUN_DIR}/slurm.conf`;
export const SLURM_WORK_DIR = `${STATE_DIR}/jobs`;

const SCRIPTS = resolve(import.meta.dirname, '..', '..', 'scripts');

/** Slurm's client commands against the test cluster; stdout, trimmed. */
export function slurm(command: string, ...args: string[]): string {
  return execFileSync(command, args, { env: { ...process.env, SLURM_CONF } })
    .toString()
    .trim();
}

/**
 * The cluster, brought up by scripts/slurm-up.sh unless it already answers (then reused as is).
 * Returns whether it was brought up here, so that whoever brought it up takes it down again.
 */
export function ensureSlurm(): { broughtUp: boolean } {
  let answers = true;
  try {
    slurm('scontrol', 'ping');
  } catch {
    answers = false;
  }
  execFileSync(`${SCRIPTS}/slurm-up.sh`, { stdio: ['ignore', 'ignore', 'inherit'] });
  return { broughtUp: !answers };
}

export function slurmDown(): void {
  execFileSync(`${SCRIPTS}/slurm-down.sh`, { stdio: 'inherit' });
}

/** Stops the cluster's slurmctld (SIGTERM, as a service manager would); resolves once it is gone. */
export async function stopController(): Promise<void> {
  const pid = Number(
    execFileSync('pgrep', ['-f', `slurmctld -f ${SLURM_CONF}`])
      .toString()
      .trim(),
  );
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100; i += 1) {
    try {
      process.kill(pid, 0);
    } catch {
      return; // gone
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`slurmctld ${pid} did not stop`);
}

/** Starts what of the cluster is not running (scripts/slurm-up.sh). */
export function startController(): void {
  execFileSync(`${SCRIPTS}/slurm-up.sh`, { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Kills the node's slurmd (SIGKILL: the node is lost to the controller; its jobs run on). */
export function killNodeDaemon(): void {
  const pid = execFileSync('pgrep', ['-f', `slurmd -f ${SLURM_CONF}`])
    .toString()
    .trim();
  process.kill(Number(pid), 'SIGKILL');
}
