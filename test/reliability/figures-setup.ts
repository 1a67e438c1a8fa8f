import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FIGURES_FILE, currentBudget, type Figure } from './figures';

const SUMMARY = resolve(dirname(FIGURES_FILE), 'reliability.json');

const format = (value: number | string) =>
  typeof value === 'string' || Number.isInteger(value)
    ? String(value)
    : value.toFixed(value < 10 ? 2 : 1);

/**
 * Starts each run with no figures, then prints one line per figure when every file is done and
 * writes them all to test-results/reliability.json.
 */
export default function setup(): () => void {
  mkdirSync(dirname(FIGURES_FILE), { recursive: true });
  rmSync(FIGURES_FILE, { force: true });
  return () => {
    const figures: Figure[] = existsSync(FIGURES_FILE)
      ? readFileSync(FIGURES_FILE, 'utf8')
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
