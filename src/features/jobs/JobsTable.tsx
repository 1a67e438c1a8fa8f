import { Anchor, Group, Table, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import type { JobListItem } from '../../../contract';
import { CopyIconButton } from '../../components/CopyIconButton';
import { LabelBadges } from '../../components/LabelBadges';
import {
  SelectAllCheckbox,
  SelectRowCheckbox,
  type Selection,
} from '../../components/SelectionControls';
import { StateBadge } from '../../components/StateBadge';
import { TimeText } from '../../components/TimeText';
import { durationMs, formatDuration } from '../../lib/time';
import { shortId } from '../../lib/short-id';
import { isFailureNote, rowNote } from '../../lib/waiting-text';
import { useNow } from '../../lib/use-now';
import { sortJobs } from './sort-jobs';
import type { SortDirection, SortKey, TableSort } from './url-filters';

/** A first click sorts the way one usually looks: newest and longest first, states in order. */
const FIRST_DIRECTION: Record<SortKey, SortDirection> = {
  created: 'descending',
  started: 'descending',
  ended: 'descending',
  duration: 'descending',
  state: 'ascending',
};

function nextSort(sort: TableSort, key: SortKey): TableSort {
  if (sort.key !== key) return { key, direction: FIRST_DIRECTION[key] };
  return { key, direction: sort.direction === 'ascending' ? 'descending' : 'ascending' };
}

function SortableHeader({
  label,
  column,
  sort,
  onSortChange,
}: {
  label: string;
  column: SortKey;
  sort: TableSort;
  onSortChange: (sort: TableSort) => void;
}) {
  const active = sort.key === column;
  const arrow = !active ? '↕' : sort.direction === 'ascending' ? '▲' : '▼';
  return (
    <Table.Th aria-sort={active ? sort.direction : undefined}>
      <UnstyledButton
        fw="inherit"
        fz="inherit"
        onClick={() => onSortChange(nextSort(sort, column))}
      >
        {label}{' '}
        <Text span c={active ? undefined : 'dimmed'} aria-hidden>
          {arrow}
        </Text>
      </UnstyledButton>
    </Table.Th>
  );
}

/** A job's reason: why it waits or why it failed, two lines at most, the whole on hover. */
function NoteCell({ job }: { job: JobListItem }) {
  const note = rowNote(job);
  return (
    <Table.Td data-testid="note" data-label="Note" style={{ whiteSpace: 'normal' }}>
      {note === null ? (
        <Text span c="dimmed">
          —
        </Text>
      ) : (
        <Text
          size="xs"
          lineClamp={2}
          title={note}
          c={isFailureNote(job) ? 'var(--mantine-color-error)' : undefined}
        >
          {note}
        </Text>
      )}
    </Table.Td>
  );
}

function JobRow({ job, now, selection }: { job: JobListItem; now: number; selection: Selection }) {
  const duration = durationMs(job, now);
  return (
    <Table.Tr
      data-selected={selection.selected.has(job.id) || undefined}
      data-job-id={job.id}
      style={{ whiteSpace: 'nowrap' }}
    >
      <Table.Td>
        <SelectRowCheckbox id={job.id} name={job.name} {...selection} />
      </Table.Td>
      <Table.Td data-label="Name" style={{ whiteSpace: 'normal' }}>
        {/* Name and definition on one line when they fit: a row a line high. */}
        <Group gap={6} style={{ rowGap: 0 }}>
          <Anchor component={Link} to={`/jobs/${encodeURIComponent(job.id)}`} size="sm">
            {job.name}
          </Anchor>
          <Text span size="xs" c="dimmed">
            {job.job_definition}
          </Text>
        </Group>
        <LabelBadges labels={job.labels} />
      </Table.Td>
      <Table.Td data-label="Id">
        <Group gap={4} wrap="nowrap">
          <Text span ff="monospace" size="sm" data-testid="job-id">
            {shortId(job.id)}
          </Text>
          <CopyIconButton value={job.id} label="Copy job id" />
        </Group>
      </Table.Td>
      {/* Wide enough for every state's word: a squeezed badge would cut it short. */}
      <Table.Td miw={104} data-label="State">
        <StateBadge state={job.state} size="sm" />
      </Table.Td>
      <Table.Td data-label="Queue">{job.job_queue}</Table.Td>
      <Table.Td data-testid="created" data-label="Created">
        <TimeText iso={job.created_at} relativeTo={now} short />
      </Table.Td>
      <Table.Td data-testid="started" data-label="Started">
        <TimeText iso={job.started_at} relativeTo={now} short />
      </Table.Td>
      <Table.Td data-testid="ended" data-label="Ended">
        <TimeText iso={job.finished_at} relativeTo={now} short />
      </Table.Td>
      <Table.Td ff="monospace" data-testid="duration" data-label="Duration">
        {duration === null ? '—' : formatDuration(duration)}
      </Table.Td>
      <Table.Td ff="monospace" data-testid="exit-code" data-label="Exit code">
        {job.exit_code ?? '—'}
      </Table.Td>
      <NoteCell job={job} />
    </Table.Tr>
  );
}

export function JobsTable({
  jobs,
  sort,
  sortedByService = false,
  onSortChange,
  selected,
  onSelectionChange,
}: {
  jobs: JobListItem[];
  sort: TableSort;
  /** The service ordered the jobs by `sort`, every matching one: the page is shown as it came. */
  sortedByService?: boolean;
  onSortChange: (sort: TableSort) => void;
  selected: ReadonlySet<string>;
  onSelectionChange: (selected: Set<string>) => void;
}) {
  // One clock for the page: every second while a duration ticks, else often enough for "ago".
  const running = jobs.some((job) => job.started_at && !job.finished_at);
  const now = useNow(true, running ? 1000 : 15_000);
  const rows = sortedByService ? jobs : sortJobs(jobs, sort, now);
  const sortable = { sort, onSortChange };
  return (
    <Table.ScrollContainer minWidth={1100}>
      {/* Dense: a row without labels is 46 px high at 1440 px (56 before the notes). */}
      <Table
        striped
        highlightOnHover
        aria-label="Project jobs"
        data-cards
        fz="sm"
        verticalSpacing={4}
        horizontalSpacing="xs"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <SelectAllCheckbox
                label="Select every job on this page"
                ids={jobs.map((job) => job.id)}
                selected={selected}
                onChange={onSelectionChange}
              />
            </Table.Th>
            <Table.Th>Name / definition</Table.Th>
            <Table.Th>Id</Table.Th>
            <SortableHeader label="State" column="state" {...sortable} />
            <Table.Th>Queue</Table.Th>
            <SortableHeader label="Created" column="created" {...sortable} />
            <SortableHeader label="Started" column="started" {...sortable} />
            <SortableHeader label="Ended" column="ended" {...sortable} />
            <SortableHeader label="Duration" column="duration" {...sortable} />
            <Table.Th>Exit code</Table.Th>
            <Table.Th miw={220}>Reason / note</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((job) => (
            <JobRow
              key={job.id}
              job={job}
              now={now}
              selection={{ selected, onChange: onSelectionChange }}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
