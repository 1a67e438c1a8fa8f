import type { ArrayChild, JobState } from '../../../contract';

/** The states a "failures first" grid puts ahead of the rest: the ends that did not succeed. */
const FAILED_STATES: readonly JobState[] = ['failed', 'timeout', 'error'];

export const isFailure = (state: JobState) => FAILED_STATES.includes(state);

/** The cells in the order the grid shows them: by index, or the failures first (each by index). */
export function gridOrder(items: readonly ArrayChild[], failuresFirst: boolean): ArrayChild[] {
  if (!failuresFirst) return [...items];
  return [
    ...items.filter((child) => isFailure(child.state)),
    ...items.filter((child) => !isFailure(child.state)),
  ];
}

/** The ids from `from` to `to` (positions in the grid's order, either way round), both included. */
export function rangeIds(order: readonly ArrayChild[], from: number, to: number): string[] {
  const [start, end] = from <= to ? [from, to] : [to, from];
  return order.slice(start, end + 1).map((child) => child.id);
}

/** The selection with the range added (shift-click, Shift+arrows): what was selected stays. */
export function withRange(
  selected: ReadonlySet<string>,
  order: readonly ArrayChild[],
  from: number,
  to: number,
): Set<string> {
  return new Set([...selected, ...rangeIds(order, from, to)]);
}

/** The selection with one child switched (click, Space). */
export function toggled(selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  if (!next.delete(id)) next.add(id);
  return next;
}

/**
 * Where a key moves the focus in a grid of `count` cells, `columns` to a row; null for a key that
 * does not move it. Arrows stop at the edges; Home and End go to the first and last cell.
 */
export function movedFocus(key: string, at: number, columns: number, count: number): number | null {
  const target =
    key === 'ArrowRight'
      ? at + 1
      : key === 'ArrowLeft'
        ? at - 1
        : key === 'ArrowDown'
          ? at + columns
          : key === 'ArrowUp'
            ? at - columns
            : key === 'Home'
              ? 0
              : key === 'End'
                ? count - 1
                : null;
  if (target === null || count === 0) return null;
  return Math.min(Math.max(target, 0), count - 1);
}
