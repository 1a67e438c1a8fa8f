import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Where every figure of a run is appended, one JSON line each, for the summary at the end. */
export const FIGURES_FILE = resolve(
  import.meta.dirname,
  '..',
  '..',
  'test-results',
  'reliability.jsonl',
);

/** `RELIABILITY_BUDGET=ci` runs the bounded part; anything else the whole suite. */
export function budget<T>(sizes: { ci: T; full: T }): T {
  return process.env.RELIABILITY_BUDGET === 'ci' ? sizes.ci : sizes.full;
}

export function recordFigure(name: string, value: number | string, unit = ''): void {
  mkdirSync(dirname(FIGURES_FILE), { recursive: true });
  appendFileSync(FIGURES_FILE, `${JSON.stringify({ name, value, unit })}\n`);
}
