import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/** The swarm of scripts/swarm-up.sh (names from scripts/swarm-env.sh). */
const RUN_DIR = process.env.JDSWARM_RUN_DIR ?? '/run/jobdeck-swarm';
const PREFIX = process.env.JDSWARM_PREFIX ?? 'jdswarm';
export const NODES = [1, 2, 3] as const;
export const nodeSocket = (n: number) => `${RUN_DIR}/node${n}/docker.sock`;
export const hostname = (n: number) => `${PREFIX}${n}`;
export const MANAGER_SOCKET = nodeSocket(1);

const SCRIPTS = resolve(import.meta.dirname, '..', '..', 'scripts');

/**
 * The swarm, brought up by scripts/swarm-up.sh unless it already answers (then reused as is).
 * Returns the manager's address (unix://…) and whether it was brought up here, so that whoever
 * brought it up takes it down again (swarmDown) and nobody else does.
 */
export function ensureSwarm(): { manager: string; broughtUp: boolean } {
  let answers = true;
  try {
    execFileSync('docker', ['-H', `unix://${nodeSocket(1)}`, 'node', 'ls'], { stdio: 'ignore' });
  } catch {
    answers = false;
  }
  const manager = execFileSync(`${SCRIPTS}/swarm-up.sh`, { stdio: ['ignore', 'pipe', 'inherit'] })
    .toString()
    .trim();
  return { manager, broughtUp: !answers };
}

export function swarmDown(): void {
  execFileSync(`${SCRIPTS}/swarm-down.sh`, { stdio: 'inherit' });
}

/** Brings a stopped node back and undoes a drain, whatever a test left. */
export function repairSwarm(): void {
  execFileSync(`${SCRIPTS}/swarm-up.sh`, { stdio: ['ignore', 'ignore', 'inherit'] });
}

/** The docker CLI against node n's engine (node 1 is the manager); stdout, trimmed. */
export function onNode(n: number, ...args: string[]): string {
  return execFileSync('docker', ['-H', `unix://${nodeSocket(n)}`, ...args])
    .toString()
    .trim();
}
