import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromiumLaunchOptions } from '../e2e/chromium';

/** What a bench step needs from the machine beyond Node and the local Docker Engine. */
export type Need = 'docker' | 'chromium' | 'postgres' | 'swarm' | 'slurm' | 'lighthouse';

const onPath = (command: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const POSTGRES_ROOT = '/usr/lib/postgresql';

/** For each need: what is missing, in words, or null when the machine has it. */
const checks: Record<Need, () => string | null> = {
  docker: () => {
    try {
      execFileSync('docker', ['info'], { stdio: 'ignore' });
      return null;
    } catch {
      return 'a running Docker Engine (scripts/host-setup.sh starts one)';
    }
  },
  chromium: () =>
    existsSync(chromiumLaunchOptions.executablePath)
      ? null
      : `Chromium at ${chromiumLaunchOptions.executablePath} (apt-get install chromium, or set JOBDECK_CHROMIUM)`,
  postgres: () =>
    existsSync(POSTGRES_ROOT) &&
    readdirSync(POSTGRES_ROOT).some((v) => existsSync(join(POSTGRES_ROOT, v, 'bin', 'initdb')))
      ? null
      : "PostgreSQL's initdb and pg_ctl (apt-get install postgresql)",
  // Lighthouse brings a browser driver and telemetry libraries that no test needs, so `npm ci`
  // leaves it out; the bench's Lighthouse step asks for it.
  lighthouse: () => {
    try {
      createRequire(import.meta.url).resolve('lighthouse');
      return null;
    } catch {
      return 'Lighthouse: npm install --no-save lighthouse@12 (the last major for Node 20)';
    }
  },
  swarm: () => {
    if (process.getuid?.() !== 0) return 'root, for the test swarm (network namespaces, dockerd)';
    const missing = ['ip', 'nsenter', 'unshare', 'dockerd', 'containerd', 'runc'].filter(
      (command) => !onPath(command),
    );
    return missing.length === 0
      ? null
      : `${missing.join(', ')} for the test swarm (apt-get install iproute2 util-linux docker.io)`;
  },
  slurm: () => {
    if (process.getuid?.() !== 0)
      return 'root, for the test Slurm cluster (slurmd runs jobs as their users)';
    const missing = ['slurmctld', 'slurmd', 'sbatch', 'squeue', 'scancel', 'scontrol'].filter(
      (command) => !onPath(command),
    );
    return missing.length === 0
      ? null
      : `${missing.join(', ')} for the test Slurm cluster (apt-get install slurmctld slurmd slurm-client)`;
  },
};

/** One line per step that cannot run here, naming what it lacks; empty when all can. */
export function missingPrerequisites(steps: { name: string; needs: readonly Need[] }[]): string[] {
  const found = new Map<Need, string | null>();
  const lacking = (need: Need) => {
    if (!found.has(need)) found.set(need, checks[need]());
    return found.get(need);
  };
  return steps.flatMap((step) => {
    const missing = step.needs.map(lacking).filter((what): what is string => what !== null);
    return missing.length === 0 ? [] : [`step ${step.name} needs ${missing.join('; ')}`];
  });
}
