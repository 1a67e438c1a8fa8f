import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useLocation, useNavigationType, useSearchParams } from 'react-router';
import type { JobList } from '../../../contract';
import { useCapabilities } from '../../api/capabilities';
import { useLiveUpdates } from '../../api/events';
import { jobListQuery, queueListQuery } from '../../api/queries';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LiveIndicator } from '../../components/LiveIndicator';
import { CancelSelected } from '../../components/SelectionControls';
import { BulkActions } from './BulkActions';
import { FilterBar } from './FilterBar';
import { SavedViews } from './SavedViews';
import { JobsTable } from './JobsTable';
import { MatchingSelected, SelectAllMatching } from './MatchingSelection';
import { baseSearch, withAsk, type Asks } from './url-asks';
import {
  filterOfView,
  isDefaultSort,
  searchFromView,
  viewFromSearch,
  type ViewChange,
} from './url-filters';

/**
 * The table's view is the URL's, and only the URL's: what a link shares, a reload keeps and Back
 * restores, whatever it interrupts. A change asks for a new URL built on the last one asked while
 * the router has not shown it yet (quick changes keep each other); a navigation of any other kind
 * (Back, a link) drops what was asked and not shown, so nothing asked before it can return.
 */
function useTableView() {
  const [search, setSearch] = useSearchParams();
  const location = useLocation();
  const navigationType = useNavigationType();
  const asks = useRef<Asks | null>(null);
  const view = viewFromSearch(search);
  const change = (change: ViewChange) => {
    const shown = { key: location.key, search: search.toString(), navigationType };
    const base = viewFromSearch(new URLSearchParams(baseSearch(asks.current, shown)));
    const part = typeof change === 'function' ? change(base) : change;
    const next = searchFromView({ ...base, cursor: '', ...part }).toString();
    asks.current = withAsk(asks.current, shown, next);
    setSearch(new URLSearchParams(next));
  };
  return [view, change] as const;
}

/** How many jobs match the filters (past the service's counting limit, "at least"), and how many are shown. */
function MatchCount({ list, shown }: { list: JobList; shown: number }) {
  const total = `${list.total.toLocaleString('en')}${list.total_exact ? '' : '+'}`;
  return (
    <Text size="sm" data-testid="job-count">
      {total} {list.total === 1 && list.total_exact ? 'job matches' : 'jobs match'}
      {list.next_cursor !== null && ` · ${shown} on this page`}
    </Text>
  );
}

/** Every job of the key's project (extension): filtered by the URL, live, selectable. */
export function ProjectJobs() {
  const capabilities = useCapabilities().data;
  const stream = useLiveUpdates(capabilities?.events ?? false);
  const [view, changeView] = useTableView();
  // A link with labels opened on a service without them: the list would refuse the filter.
  const labels = capabilities?.labels ? view.labels : [];
  const search = searchFromView({ ...view, labels, cursor: '' }).toString();
  // One filter object per view, so the query key (and the cached page) stays put across renders.
  const serviceSorts = capabilities?.listSort ?? false;
  const ended = capabilities?.endedFilter ? view.ended : 'any';
  const filter = useMemo(
    () => filterOfView({ ...view, labels, ended }, serviceSorts),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `search` stands for the view's fields
    [search, serviceSorts, ended],
  );
  const list = useQuery(jobListQuery(filter, view.cursor || undefined, stream));
  // Only suggestions for the queue filter: never polled, so an idle table with the stream down
  // costs one request (the list) per poll, not two.
  const queues = useQuery({
    ...queueListQuery(stream),
    enabled: capabilities?.queues ?? false,
    refetchInterval: false,
  });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  // Every job the filters match, past this page: the service acts on them (bulk actions).
  const [allMatching, setAllMatching] = useState(false);
  const select = (next: Set<string>) => {
    setAllMatching(false);
    setSelected(next);
  };

  const jobs = list.data?.items ?? [];
  const chosen = jobs.filter((job) => selected.has(job.id));
  const onChange = (change: ViewChange) => {
    select(new Set());
    changeView(change);
  };
  const pageSelected = jobs.length > 0 && chosen.length === jobs.length;
  const matching = list.data ?? undefined;
  const moreMatch = matching !== undefined && matching.total > jobs.length;
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <FilterBar
          view={view}
          queues={queues.data?.map((queue) => queue.queue) ?? []}
          labels={capabilities?.labels ?? false}
          ended={capabilities?.endedFilter ?? false}
          onChange={onChange}
        />
        <Group gap="sm">
          <SavedViews
            search={searchFromView({ ...view, cursor: '' }).toString()}
            shared={capabilities?.views ?? false}
          />
          {capabilities?.bulk && <BulkActions />}
          <LiveIndicator status={stream} />
        </Group>
      </Group>
      <Group gap="sm" mih={36}>
        {list.data && <MatchCount list={list.data} shown={jobs.length} />}
        {allMatching && matching ? (
          <MatchingSelected list={matching} filter={filter} onClear={() => select(new Set())} />
        ) : (
          <>
            <CancelSelected jobs={chosen} onDone={() => select(new Set())} />
            {capabilities?.bulk && pageSelected && moreMatch && (
              <SelectAllMatching list={matching} onSelect={() => setAllMatching(true)} />
            )}
          </>
        )}
      </Group>
      {list.isPending ? (
        <Loader aria-label="Loading the project's jobs" />
      ) : list.isError && !list.data ? (
        <ErrorAlert error={list.error} title="The project's jobs could not be listed" />
      ) : jobs.length === 0 ? (
        <Text c="dimmed" data-testid="no-jobs">
          No jobs match these filters.
        </Text>
      ) : (
        <JobsTable
          jobs={jobs}
          sort={view.sort}
          sortedByService={serviceSorts}
          // The service's sort orders every matching job, from the first page; a page-local one
          // orders the page shown: it stays on this page, and so does the selection.
          onSortChange={(sort) =>
            serviceSorts ? onChange({ sort }) : changeView({ sort, cursor: view.cursor })
          }
          selected={selected}
          onSelectionChange={select}
        />
      )}
      <Group>
        {view.cursor && (
          <Button variant="default" onClick={() => changeView({ cursor: '' })}>
            {serviceSorts && !isDefaultSort(view.sort) ? 'First page' : 'Newest jobs'}
          </Button>
        )}
        {list.data?.next_cursor && (
          <Button variant="default" onClick={() => changeView({ cursor: list.data!.next_cursor! })}>
            {serviceSorts && !isDefaultSort(view.sort) ? 'Next page' : 'Older jobs'}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
