import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigationType, useSearchParams } from 'react-router';
import { useCapabilities } from '../../api/capabilities';
import { useLiveUpdates } from '../../api/events';
import { jobListQuery, queueListQuery } from '../../api/queries';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LiveIndicator } from '../../components/LiveIndicator';
import { BulkCancelDialog } from './BulkCancelDialog';
import { JobFilters } from './JobFilters';
import { JobsTable } from './JobsTable';
import { filterOfView, searchFromView, viewFromSearch, type TableView } from './url-filters';

/**
 * The table's view, kept in the URL (any change but paging starts over).
 *
 * The view itself lives in state, so that changes in quick succession (two states picked, a
 * debounced name landing after a state) each build on the one before: the router applies a new
 * URL some time after it is asked, and its own functional update sees the URL of the last
 * render, which dropped the first of two quick picks. Each view is then written to the URL,
 * marked as ours; a URL that is not ours (a link) or one brought back (back button) replaces the
 * view.
 */
function useTableView() {
  const [search, setSearch] = useSearchParams();
  const location = useLocation();
  const navigationType = useNavigationType();
  const [state, setState] = useState(() => ({ location, view: viewFromSearch(search) }));
  let { view } = state;
  // Every navigation is a new location, even one back to the entry the view was at: a back
  // pressed before the router rendered this hook's own push returns to the very same key, and
  // comparing keys took it for no navigation at all (the filter stayed, and was pushed again).
  if (location !== state.location) {
    // Back and forward (POP) bring an earlier URL back, even one this hook wrote: adopt it.
    const ours =
      navigationType !== 'POP' &&
      (location.state as { filters?: boolean } | null)?.filters === true;
    view = ours ? state.view : viewFromSearch(search);
    setState({ location, view });
  }
  const wanted = searchFromView(view).toString();
  const shown = search.toString();
  useEffect(() => {
    if (wanted !== shown) setSearch(new URLSearchParams(wanted), { state: { filters: true } });
  }, [wanted, shown, setSearch]);
  const change = (part: Partial<TableView>) =>
    setState((current) => ({ ...current, view: { ...current.view, cursor: '', ...part } }));
  return [view, change] as const;
}

/** Every job of the key's project (extension): filtered by the URL, live, selectable. */
export function ProjectJobs() {
  const capabilities = useCapabilities().data;
  const stream = useLiveUpdates(capabilities?.events ?? false);
  const [view, changeView] = useTableView();
  const search = searchFromView({ ...view, cursor: '' }).toString();
  // One filter object per view, so the query key (and the cached page) stays put across renders.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `search` stands for the view's fields
  const filter = useMemo(() => filterOfView(view), [search]);
  const list = useQuery(jobListQuery(filter, view.cursor || undefined, stream));
  // Only suggestions for the queue filter: never polled, so an idle table with the stream down
  // costs one request (the list) per poll, not two.
  const queues = useQuery({
    ...queueListQuery(stream),
    enabled: capabilities?.queues ?? false,
    refetchInterval: false,
  });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialogOpened, dialog] = useDisclosure();

  const jobs = list.data?.items ?? [];
  const chosen = jobs.filter((job) => selected.has(job.id));
  const onChange = (part: Partial<TableView>) => {
    setSelected(new Set());
    changeView(part);
  };
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <JobFilters
          view={view}
          queues={queues.data?.map((queue) => queue.queue) ?? []}
          onChange={onChange}
        />
        <LiveIndicator status={stream} />
      </Group>
      <Group gap="sm" mih={36}>
        <Text size="sm" c="dimmed" data-testid="selection-count">
          {chosen.length} selected
        </Text>
        <Button color="red" variant="light" disabled={chosen.length === 0} onClick={dialog.open}>
          Cancel selected…
        </Button>
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
        <JobsTable jobs={jobs} selected={selected} onSelectionChange={setSelected} />
      )}
      <Group>
        {view.cursor && (
          <Button variant="default" onClick={() => changeView({ cursor: '' })}>
            Newest jobs
          </Button>
        )}
        {list.data?.next_cursor && (
          <Button variant="default" onClick={() => changeView({ cursor: list.data!.next_cursor! })}>
            Older jobs
          </Button>
        )}
      </Group>
      <BulkCancelDialog
        jobs={chosen}
        opened={dialogOpened}
        onClose={dialog.close}
        onDone={() => setSelected(new Set())}
      />
    </Stack>
  );
}
