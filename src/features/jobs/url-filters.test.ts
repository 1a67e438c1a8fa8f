import { describe, expect, it } from 'vitest';
import { filterFields } from '../../api/jobs';
import {
  countFilters,
  DEFAULT_SORT,
  filterOfView,
  searchFromView,
  viewFromSearch,
} from './url-filters';

describe('the jobs table view in the URL', () => {
  it('round-trips every filter and drops what is not one', () => {
    const search = new URLSearchParams(
      'state=running&state=runnable,bogus&queue=demo::default&name=nightly-&created=custom&after=2026-11-21T10:00:00.000Z&ended=24h&cursor=42&sort=-duration&label=team%3Ddata&label=ticket&label=bad%20key&id=0b9c1f4e-0000-4000-8000-00000000000a',
    );
    const view = viewFromSearch(search);
    expect(view).toEqual({
      states: ['running', 'runnable'],
      queue: 'demo::default',
      name: 'nightly-',
      created: 'custom',
      after: '2026-11-21T10:00:00.000Z',
      before: '',
      ended: '24h',
      cursor: '42',
      sort: { key: 'duration', direction: 'descending' },
      labels: ['team=data', 'ticket'],
      ids: ['0b9c1f4e-0000-4000-8000-00000000000a'],
    });
    expect(viewFromSearch(searchFromView(view))).toEqual(view);
    // A failure group's link names its jobs: the list is asked for those only.
    expect(filterFields(filterOfView(view)).id).toEqual(['0b9c1f4e-0000-4000-8000-00000000000a']);
    expect(filterOfView(view).labels).toEqual(['team=data', 'ticket']);
    expect(filterOfView(view).endedWithinMs).toBe(86_400_000);
    // The sort is the service's only where it sorts; newest first is its order without one.
    expect(filterOfView(view).sort).toBeUndefined();
    expect(filterOfView(view, true).sort).toBe('-duration');
    expect(
      filterOfView({ ...view, sort: { key: 'ended', direction: 'ascending' } }, true).sort,
    ).toBe('ended_at');
    expect(filterOfView({ ...view, sort: DEFAULT_SORT }, true).sort).toBeUndefined();
    expect(
      searchFromView(
        viewFromSearch(new URLSearchParams('created=never&ended=custom&after=x&sort=-created')),
      ).toString(),
    ).toBe('');
    expect(viewFromSearch(new URLSearchParams('sort=state')).sort).toEqual({
      key: 'state',
      direction: 'ascending',
    });
    expect(viewFromSearch(new URLSearchParams('sort=-bogus')).sort).toEqual(DEFAULT_SORT);
  });

  it('keeps an incident’s ended range, asks the service for it, and counts it as one filter', () => {
    const view = viewFromSearch(
      new URLSearchParams(
        'state=error&queue=q&ended_after=2026-11-27T08:14:00.000Z&ended_before=2026-11-27T08:32:00.000Z',
      ),
    );
    expect(view).toMatchObject({
      endedAfter: '2026-11-27T08:14:00.000Z',
      endedBefore: '2026-11-27T08:32:00.000Z',
    });
    expect(viewFromSearch(searchFromView(view))).toEqual(view);
    expect(filterFields(filterOfView(view))).toEqual({
      state: ['error'],
      queue: 'q',
      ended_after: '2026-11-27T08:14:00.000Z',
      ended_before: '2026-11-27T08:32:00.000Z',
    });
    expect(countFilters(view)).toBe(3);
    expect(viewFromSearch(new URLSearchParams('ended_after=soon')).endedAfter).toBeUndefined();
  });

  it('turns a preset into a sliding window and a custom range into UTC bounds', () => {
    const base = viewFromSearch(new URLSearchParams());
    expect(filterOfView({ ...base, created: '1h' })).toEqual({
      states: [],
      createdWithinMs: 3_600_000,
    });
    expect(
      filterOfView({ ...base, created: 'custom', before: '2026-11-21T13:00:00+01:00', queue: 'q' }),
    ).toEqual({ states: [], queue: 'q', createdBefore: '2026-11-21T12:00:00.000Z' });
  });
});
