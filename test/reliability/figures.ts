/**
 * Figures of the reliability suite (`npm run test:reliability`).
 *
 * How to add a part:
 * 1. Put a file `test/reliability/<topic>.test.ts` beside the others; it is picked up by
 *    test/reliability/vitest.config.ts, which also starts Docker checks and the test image.
 * 2. Size every loop with `budget(full, ci)`: the full count for `npm run test:reliability`, the
 *    small one when `RELIABILITY_BUDGET=ci` (scripts/test-all.sh), which must stay within minutes.
 * 3. Assert what must hold (expect), and also record what was measured with
 *    `figure('<topic>: <what>', value, '<unit>')`, e.g. `figure('fuzz: 5xx responses', 0, 'count')`.
 *    Name figures so they read well alone; one line each is printed at the end of the run and
 *    all are written to test-results/reliability.json (quote them in the README from there).
 *
 * Figures travel from the test workers to the printing teardown through a JSON-lines file, so
 * any number of files and workers can record them.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'vitest';

export type Budget = 'full' | 'ci';

export function currentBudget(): Budget {
  return process.env.RELIABILITY_BUDGET === 'ci' ? 'ci' : 'full';
}

/** The count to use in this run: `full` normally, `ci` under RELIABILITY_BUDGET=ci. */
export function budget(full: number, ci: number): number {
  return currentBudget() === 'ci' ? ci : full;
}

export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** Which test file recorded it. */
  source: string;
  budget: Budget;
}

/** Set by the global setup (figures-setup.ts) for the workers. */
export const FIGURES_FILE_ENV = 'JOBDECK_RELIABILITY_FIGURES';

export function figure(name: string, value: number, unit: string): void {
  const file = process.env[FIGURES_FILE_ENV];
  if (!file) throw new Error(`${FIGURES_FILE_ENV} is unset: run through npm run test:reliability`);
  const source = expect.getState().testPath?.split('/').pop() ?? 'unknown';
  const record: Figure = { name, value, unit, source, budget: currentBudget() };
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(record)}\n`);
}

/** Milliseconds taken by `work`, with its result. */
export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}
