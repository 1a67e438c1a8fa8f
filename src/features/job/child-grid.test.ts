import { describe, expect, it } from 'vitest';
import { arrayChild } from '../../test/array';
import { gridOrder, movedFocus, rangeIds, toggled, withRange } from './child-grid';

const cells = [
  arrayChild(0),
  arrayChild(1, { state: 'failed' }),
  arrayChild(2),
  arrayChild(3, { state: 'timeout' }),
  arrayChild(4, { state: 'error' }),
];
const indexes = (children: { index: number }[]) => children.map((child) => child.index);

describe("an array's grid of children", () => {
  it('orders by index, or puts the failed, timed out and errored first, each by index', () => {
    expect(indexes(gridOrder(cells, false))).toEqual([0, 1, 2, 3, 4]);
    expect(indexes(gridOrder(cells, true))).toEqual([1, 3, 4, 0, 2]);
  });

  it('selects a range either way round, keeping what was selected', () => {
    const order = gridOrder(cells, true);
    expect(rangeIds(order, 3, 1)).toEqual([order[1]!.id, order[2]!.id, order[3]!.id]);
    const before = new Set([cells[0]!.id]);
    expect(withRange(before, cells, 3, 4)).toEqual(
      new Set([cells[0]!.id, cells[3]!.id, cells[4]!.id]),
    );
    expect(before.size).toBe(1);
    expect(toggled(toggled(before, cells[2]!.id), cells[0]!.id)).toEqual(new Set([cells[2]!.id]));
  });

  it('moves the focus by a cell, a row, or to either end, stopping at the edges', () => {
    expect(movedFocus('ArrowRight', 4, 10, 5)).toBe(4);
    expect(movedFocus('ArrowLeft', 0, 10, 5)).toBe(0);
    expect(movedFocus('ArrowDown', 2, 10, 50)).toBe(12);
    expect(movedFocus('ArrowUp', 12, 10, 50)).toBe(2);
    expect(movedFocus('ArrowDown', 45, 10, 50)).toBe(49);
    expect(movedFocus('End', 0, 10, 10_000)).toBe(9_999);
    expect(movedFocus('Home', 77, 10, 10_000)).toBe(0);
    expect(movedFocus('a', 3, 10, 50)).toBeNull();
    expect(movedFocus('ArrowRight', 0, 10, 0)).toBeNull();
  });
});
