import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { FIGURES_FILE_ENV, currentBudget, type Figure } from './figures';

const RESULTS = resolve(import.meta.dirname, '..', '..', 'test-results');
const LINES = resolve(RESULTS, 'reliability-figures.jsonl');
const SUMMARY = resolve(RESULTS, 'reliability.json');

function format(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1);
}

/**
 * Starts each run with no figures, then prints one line per figure when every file is done and
 * writes them all to test-results/reliability.json.
 */
export default function setup(): () => void {
  mkdirSync(RESULTS, { recursive: true });
  rmSync(LINES, { force: true });
  process.env[FIGURES_FILE_ENV] = LINES;
  return () => {
    const figures: Figure[] = existsSync(LINES)
      ? readFileSync(LINES, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Figure)
      : [];
    const width = Math.max(0, ...figures.map((f) => f.name.length));
    const lines = figures.map((f) => `  ${f.name.padEnd(width)}  ${format(f.value)} ${f.unit}`);
    process.stdout.write(
      `\nReliability figures (budget: ${currentBudget()}, ${figures.length} figures)\n${lines.join('\n')}\n`,
    );
    writeFileSync(
      SUMMARY,
      `${JSON.stringify({ at: new Date().toISOString(), budget: currentBudget(), figures }, null, 2)}\n`,
    );
  };
}
