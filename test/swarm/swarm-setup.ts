import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { onNode } from './swarm';

const SCRIPTS = resolve(import.meta.dirname, '..', '..', 'scripts');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The swarm manager's socket, as scripts/swarm-up.sh printed it (unix://…). */
    swarmManager: string;
  }
}

/**
 * The three-node swarm of scripts/swarm-up.sh, with the test image on every node: brought up
 * if it is not (and down again at the end, even when tests fail), reused if it is.
 */
export default function setup(project: TestProject): () => void {
  const upBefore = answers();
  const manager = execFileSync(`${SCRIPTS}/swarm-up.sh`, { stdio: ['ignore', 'pipe', 'inherit'] })
    .toString()
    .trim();
  project.provide('swarmManager', manager);
  return () => {
    if (!upBefore) execFileSync(`${SCRIPTS}/swarm-down.sh`, { stdio: 'inherit' });
  };
}

function answers(): boolean {
  try {
    onNode(1, 'node', 'ls');
    return true;
  } catch {
    return false;
  }
}
