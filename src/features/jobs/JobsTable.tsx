import { Anchor, Checkbox, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { JobListItem } from '../../../contract';
import { StateBadge } from '../../components/StateBadge';
import { TimeText } from '../../components/TimeText';
import { formatDuration } from '../../lib/time';
import { useNow } from '../../lib/use-now';

/** Finished − started, or the time so far while it runs; nothing before it started. */
function durationOf(job: JobListItem, now: number): string {
  if (!job.started_at) return '—';
  const end = job.finished_at ? Date.parse(job.finished_at) : now;
  return formatDuration(end - Date.parse(job.started_at));
}

function JobRow({
  job,
  now,
  selected,
  onSelect,
}: {
  job: JobListItem;
  now: number;
  selected: boolean;
  onSelect: (selected: boolean) => void;
}) {
  return (
    <Table.Tr data-selected={selected || undefined} data-job-id={job.id}>
      <Table.Td>
        <Checkbox
          aria-label={`Select ${job.name}`}
          checked={selected}
          onChange={(event) => onSelect(event.currentTarget.checked)}
        />
      </Table.Td>
      <Table.Td>
        <Anchor component={Link} to={`/jobs/${encodeURIComponent(job.id)}`}>
          {job.name}
        </Anchor>
        <Text size="xs" c="dimmed">
          {job.job_definition}
        </Text>
      </Table.Td>
      <Table.Td>
        <StateBadge state={job.state} size="sm" />
      </Table.Td>
      <Table.Td>{job.job_queue}</Table.Td>
      <Table.Td>
        <TimeText iso={job.created_at} />
      </Table.Td>
      <Table.Td ff="monospace">{durationOf(job, now)}</Table.Td>
      <Table.Td ff="monospace" data-testid="exit-code">
        {job.exit_code ?? '—'}
      </Table.Td>
    </Table.Tr>
  );
}

export function JobsTable({
  jobs,
  selected,
  onSelectionChange,
}: {
  jobs: JobListItem[];
  selected: ReadonlySet<string>;
  onSelectionChange: (selected: Set<string>) => void;
}) {
  // One clock for the page's running durations, ticking only while something runs.
  const now = useNow(jobs.some((job) => job.started_at && !job.finished_at));
  const all = jobs.length > 0 && jobs.every((job) => selected.has(job.id));
  const some = jobs.some((job) => selected.has(job.id));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelectionChange(next);
  };
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped highlightOnHover aria-label="Project jobs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select every job on this page"
                checked={all}
                indeterminate={some && !all}
                onChange={(event) =>
                  onSelectionChange(
                    new Set(event.currentTarget.checked ? jobs.map((job) => job.id) : []),
                  )
                }
              />
            </Table.Th>
            <Table.Th>Name / definition</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Queue</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Duration</Table.Th>
            <Table.Th>Exit code</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {jobs.map((job) => (
            <JobRow
              key={job.id}
              job={job}
              now={now}
              selected={selected.has(job.id)}
              onSelect={(on) => toggle(job.id, on)}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
