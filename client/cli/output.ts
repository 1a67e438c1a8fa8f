import { UsageError } from './usage-error';

export type OutputFormat = 'table' | 'json';

export function outputFormatOf(text: string): OutputFormat {
  if (text === 'table' || text === 'json') return text;
  throw new UsageError(`--output: must be table or json (got "${text}")`);
}

export const printJson = (value: unknown) =>
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** Columns padded to their widest cell; the last one is left unpadded. */
/** `label  value` lines, the values aligned; a line without a value is left out. */
export function printFacts(lines: [string, string | number | null | undefined][]): void {
  const shown = lines.filter(([, value]) => value !== null && value !== undefined);
  const width = Math.max(...shown.map(([label]) => label.length));
  process.stdout.write(
    shown.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n') + '\n',
  );
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** `2026-12-07 06:14:03`: a time in the terminal's own zone, to the second. */
export function localTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}
