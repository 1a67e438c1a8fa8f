import type { ArrayAnswer, ArrayChild, JobState } from '../../contract';

/** An id ending in `n`, as the service's time-ordered ids differ at their end. */
export const childId = (index: number) =>
  `01a20274-e614-709d-917d-${String(index).padStart(12, '0')}`;

/** Child `index` of array `parent`, as the array answer lists it: completed unless told otherwise. */
export function arrayChild(
  index: number,
  fields: Partial<ArrayChild> = {},
  parent = 'fan-out',
): ArrayChild {
  return {
    id: childId(index),
    index,
    name: `${parent}:${index}`,
    state: 'completed',
    system_note: null,
    exit_code: 0,
    started_at: '2026-11-26T10:41:00.000Z',
    finished_at: '2026-11-26T10:41:07.000Z',
    ...fields,
  };
}

/** A parent's answer: its size, the counts of `items` (unless given), those items. */
export function parentAnswer(
  size: number,
  items: ArrayChild[],
  fields: Partial<ArrayAnswer> = {},
): ArrayAnswer {
  const counts: Partial<Record<JobState, number>> = {};
  for (const item of items) counts[item.state] = (counts[item.state] ?? 0) + 1;
  return { size, parent_id: null, index: null, counts, items, next_cursor: null, ...fields };
}

/** What a job that is in no array gets. */
export const notInArray: ArrayAnswer = {
  size: null,
  parent_id: null,
  index: null,
  counts: {},
  items: [],
  next_cursor: null,
};
