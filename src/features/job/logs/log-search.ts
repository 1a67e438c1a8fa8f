import type { LogLine } from '../../../api/logs';

/** Indexes of the lines containing `term`, ignoring case; none for an empty term. */
export function matchingLines(lines: readonly LogLine[], term: string): number[] {
  const needle = term.toLowerCase();
  if (!needle) return [];
  const found: number[] = [];
  lines.forEach((line, index) => {
    if (line.text.toLowerCase().includes(needle)) found.push(index);
  });
  return found;
}

/** The line's text cut around each match, for highlighting: odd parts are the matches. */
export function splitOnMatches(text: string, term: string): string[] {
  if (!term) return [text];
  const parts: string[] = [];
  const lower = text.toLowerCase();
  const needle = term.toLowerCase();
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, from)) {
    parts.push(text.slice(from, at), text.slice(at, at + needle.length));
    from = at + needle.length;
  }
  parts.push(text.slice(from));
  return parts;
}

/** The output as a file: one line each, prefixed with its time and stream when the service gave them. */
export function logFileText(lines: readonly LogLine[], withTimes: boolean): string {
  return lines
    .map((line) => (withTimes && line.at ? `${line.at} ${line.stream} ${line.text}` : line.text))
    .join('\n')
    .concat(lines.length > 0 ? '\n' : '');
}
