/**
 * Figures of the reliability suite (`npm run test:reliability`).
 *
 * How to add a part:
 * 1. Put a file `test/reliability/<topic>.test.ts` beside the others; it is picked up by
 *    test/reliability/vitest.config.ts (Docker checked and the test image built first).
 * 2. Size every loop with `budget({ ci, full })`: `full` for `npm run test:reliability`, `ci` when
 *    `RELIABILITY_BUDGET=ci` (scripts/test-all.sh), which must stay within a few minutes.
 * 3. Assert what must hold (expect), and also record what was measured with
 *    `recordFigure('<topic>: <what>', value, '<unit>')`. Name figures so they read well alone:
 *    one line each is printed at the end of the run (figures-setup.ts), and all are written to
 *    test-results/reliability.json, from where docs/reliability.md quotes them.
 *
 * Figures travel from the test workers to that summary through a JSON-lines file, so any number of
 * files and workers can record them.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { expect } from 'vitest';

/** Where every figure of a run is appended, one JSON line each, for the summary at the end. */
export const FIGURES_FILE = resolve(
  import.meta.dirname,
  '..',
  '..',
  'test-results',
  'reliability.jsonl',
);

export type Budget = 'ci' | 'full';

export function currentBudget(): Budget {
  return process.env.RELIABILITY_BUDGET === 'ci' ? 'ci' : 'full';
}

/** `RELIABILITY_BUDGET=ci` runs the bounded part; anything else the whole suite. */
export function budget<T>(sizes: { ci: T; full: T }): T {
  return sizes[currentBudget()];
}

export interface Figure {
  name: string;
  value: number | string;
  unit: string;
  /** The test file that recorded it. */
  source: string;
}

export function recordFigure(name: string, value: number | string, unit = ''): void {
  const source = expect.getState().testPath?.split('/').pop() ?? 'unknown';
  const record: Figure = { name, value, unit, source };
  mkdirSync(dirname(FIGURES_FILE), { recursive: true });
  appendFileSync(FIGURES_FILE, `${JSON.stringify(record)}\n`);
}

/** Milliseconds taken by `work`, with its result. */
export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}
