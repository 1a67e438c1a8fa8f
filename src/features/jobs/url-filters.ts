import { parseLabelSelector, type JobState, type ListSort } from '../../../contract';
import type { JobFilter } from '../../api/jobs';
import { statesFromParams } from '../../lib/state-params';

/** Created-time choices: a window ending now, or a range of the reader's own. */
export const CREATED_PRESETS = {
  '1h': { label: 'Last hour', ms: 3_600_000 },
  '24h': { label: 'Last 24 hours', ms: 86_400_000 },
  '7d': { label: 'Last 7 days', ms: 7 * 86_400_000 },
} as const;
export type CreatedPreset = keyof typeof CREATED_PRESETS;
export type CreatedChoice = CreatedPreset | 'custom' | 'any';

/**
 * Columns the table sorts by: every matching job on a service with `sort`, the page shown on one
 * that lists newest first only.
 */
export const SORT_KEYS = ['created', 'started', 'ended', 'duration', 'state'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = 'ascending' | 'descending';
export interface TableSort {
  key: SortKey;
  direction: SortDirection;
}
/** The service's own order, so a URL without `sort` shows the page as it came. */
export const DEFAULT_SORT: TableSort = { key: 'created', direction: 'descending' };

/** Each column as the service's `sort` names it. */
const SERVICE_SORT_FIELD = {
  created: 'created_at',
  started: 'started_at',
  ended: 'ended_at',
  duration: 'duration',
  state: 'state',
} as const satisfies Record<SortKey, string>;

/** Ended-time choices (a service with `ended_after`): a window ending now. */
export type EndedChoice = CreatedPreset | 'any';

/**
 * A change to the view: the fields to set, or, where a pick toggles one value of a list (a
 * MultiSelect's), a function of the view it builds on, which may be one asked for and not yet
 * shown (two quick picks then keep both).
 */
export type ViewChange = Partial<TableView> | ((base: TableView) => Partial<TableView>);

/** The jobs table's view as its URL holds it: what a link to it shares, and what reload keeps. */
export interface TableView {
  states: JobState[];
  queue: string;
  name: string;
  created: CreatedChoice;
  /** ISO times of a custom range; empty when open-ended. */
  after: string;
  before: string;
  ended: EndedChoice;
  cursor: string;
  sort: TableSort;
  /** Label filters as the list takes them: `key=value` or `key`. */
  labels: string[];
  /** Job ids, as a failure group's link names them: only these jobs. */
  ids: string[];
  /** Ended in this range (ISO times), as an incident's link on the trends names it. */
  endedAfter?: string;
  endedBefore?: string;
}

const isIso = (value: string) => value !== '' && !Number.isNaN(Date.parse(value));
const isSortKey = (value: string): value is SortKey =>
  (SORT_KEYS as readonly string[]).includes(value);

/** `sort=duration` is ascending, `sort=-duration` descending; anything else is the default. */
function sortFromParam(param: string | null): TableSort {
  const descending = param?.startsWith('-') ?? false;
  const key = descending ? param!.slice(1) : (param ?? '');
  return isSortKey(key)
    ? { key, direction: descending ? 'descending' : 'ascending' }
    : DEFAULT_SORT;
}

const sortParam = (sort: TableSort) => `${sort.direction === 'descending' ? '-' : ''}${sort.key}`;

/** Whether a sort is the service's own order, newest first. */
export const isDefaultSort = (sort: TableSort) => sortParam(sort) === sortParam(DEFAULT_SORT);

export function viewFromSearch(search: URLSearchParams): TableView {
  const created = search.get('created') ?? 'any';
  return {
    states: statesFromParams(search.getAll('state')),
    queue: search.get('queue') ?? '',
    name: search.get('name') ?? '',
    created:
      created in CREATED_PRESETS || created === 'custom' ? (created as CreatedChoice) : 'any',
    after: isIso(search.get('after') ?? '') ? search.get('after')! : '',
    before: isIso(search.get('before') ?? '') ? search.get('before')! : '',
    ended:
      (search.get('ended') ?? '') in CREATED_PRESETS
        ? (search.get('ended') as CreatedPreset)
        : 'any',
    cursor: search.get('cursor') ?? '',
    sort: sortFromParam(search.get('sort')),
    labels: search.getAll('label').filter((text) => parseLabelSelector(text) !== undefined),
    ids: search.getAll('id'),
    ...(isIso(search.get('ended_after') ?? '') && { endedAfter: search.get('ended_after')! }),
    ...(isIso(search.get('ended_before') ?? '') && { endedBefore: search.get('ended_before')! }),
  };
}

/** Only what differs from the default view, so that links stay short. */
export function searchFromView(view: TableView): URLSearchParams {
  const search = new URLSearchParams();
  for (const state of view.states) search.append('state', state);
  if (view.queue) search.set('queue', view.queue);
  if (view.name) search.set('name', view.name);
  if (view.created !== 'any') search.set('created', view.created);
  if (view.created === 'custom') {
    if (view.after) search.set('after', view.after);
    if (view.before) search.set('before', view.before);
  }
  for (const label of view.labels) search.append('label', label);
  for (const id of view.ids) search.append('id', id);
  if (view.ended !== 'any') search.set('ended', view.ended);
  if (view.endedAfter) search.set('ended_after', view.endedAfter);
  if (view.endedBefore) search.set('ended_before', view.endedBefore);
  if (view.cursor) search.set('cursor', view.cursor);
  if (!isDefaultSort(view.sort)) search.set('sort', sortParam(view.sort));
  return search;
}

/** How many filters narrow the view (states, queue, name, created): 0 when it shows every job. */
export function countFilters(view: TableView): number {
  return [
    view.states.length > 0,
    view.queue,
    view.name,
    view.created !== 'any',
    view.ended !== 'any' || Boolean(view.endedAfter ?? view.endedBefore),
    view.labels.length > 0,
    view.ids.length > 0,
  ].filter(Boolean).length;
}

/**
 * The service's filter for a view; a preset is a window ending at each read. `serviceSorts`: the
 * service orders every matching job, so the view's sort is asked of it (the default, newest
 * first, is its order without one).
 */
export function filterOfView(view: TableView, serviceSorts = false): JobFilter {
  const filter: JobFilter = { states: view.states };
  if (serviceSorts && !isDefaultSort(view.sort)) {
    const field = SERVICE_SORT_FIELD[view.sort.key];
    filter.sort = (view.sort.direction === 'descending' ? `-${field}` : field) as ListSort;
  }
  if (view.ended !== 'any') filter.endedWithinMs = CREATED_PRESETS[view.ended].ms;
  if (view.endedAfter) filter.endedAfter = view.endedAfter;
  if (view.endedBefore) filter.endedBefore = view.endedBefore;
  if (view.queue) filter.queue = view.queue;
  if (view.name) filter.name = view.name;
  if (view.labels.length > 0) filter.labels = view.labels;
  if (view.ids.length > 0) filter.ids = view.ids;
  if (view.created === 'custom') {
    if (view.after) filter.createdAfter = new Date(view.after).toISOString();
    if (view.before) filter.createdBefore = new Date(view.before).toISOString();
  } else if (view.created !== 'any') {
    filter.createdWithinMs = CREATED_PRESETS[view.created].ms;
  }
  return filter;
}
