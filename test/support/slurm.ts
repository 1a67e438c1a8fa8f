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

// A Slurm job still under way: pending, running, or ending (its processes stopped, its Epilog run).
const UNDER_WAY =
  /^(PENDING|CONFIGURING|RUNNING|COMPLETING|SUSPENDED|STOPPED|SIGNALING|RESIZING|REQUEUE\w*)$/;

/** Whether any of these Slurm jobs is still under way (one Slurm purged has ended). */
export function underWay(slurmJobs: readonly string[]): boolean {
  return slurm('squeue', '--noheader', '--states=all', '--format=%i %T')
    .split('\n')
    .map((line) => line.split(' '))
    .some(([id, state]) => slurmJobs.includes(id!) && UNDER_WAY.test(state!));
}

/**
 * Cancels the Slurm jobs and resolves once each has ended: until then their batch scripts and
 * the Epilog write into their attempts' directories, which a test may then remove.
 */
export async function cancelUntilEnded(slurmJobs: readonly string[]): Promise<void> {
  if (slurmJobs.length === 0) return;
  slurm('scancel', ...slurmJobs);
  for (let i = 0; i < 600 && underWay(slurmJobs); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (underWay(slurmJobs)) throw new Error(`Slurm jobs ${slurmJobs.join(' ')} did not end`);
}
