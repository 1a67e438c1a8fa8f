import { ActionIcon, Anchor, Table, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { isFinalState } from '../../../contract';
import { isApiError } from '../../api/client';
import { jobDetailQuery } from '../../api/queries';
import { StateBadge } from '../../components/StateBadge';
import { TimeText } from '../../components/TimeText';
import { forgetJob, recentJobsStore, recordObservedState, type RecentJob } from '../../lib/history';
import { shortId } from '../../lib/short-id';
import { useSettings } from '../../lib/settings';
import { rowNote } from '../../lib/waiting-text';

/** A row polls its job only while it is not known to be final. */
function RecentJobRow({ job, pollMs }: { job: RecentJob; pollMs: number }) {
  const live = !job.lastState || !isFinalState(job.lastState);
  const query = useQuery({ ...jobDetailQuery(job.id, pollMs), enabled: live });
  useEffect(() => {
    if (query.data) recordObservedState(job.id, query.data.name, query.data.state);
  }, [job.id, query.data]);
  const notFound = isApiError(query.error) && query.error.status === 404;
  // Known while the row polls (or the job's page read it): why it waits, or how it ended.
  const note = query.data ? rowNote(query.data) : null;
  return (
    <Table.Tr>
      <Table.Td data-label="Job">
        <Anchor component={Link} to={`/jobs/${encodeURIComponent(job.id)}`}>
          {job.name ?? shortId(job.id)}
        </Anchor>
        <Text size="xs" c="dimmed" ff="monospace">
          {job.id}
        </Text>
      </Table.Td>
      <Table.Td data-label="State">
        {notFound ? (
          <Text c="dimmed">not found</Text>
        ) : (
          <StateBadge state={job.lastState} size="sm" />
        )}
      </Table.Td>
      <Table.Td data-label="Opened" visibleFrom="sm">
        <TimeText iso={job.submittedAt} />
      </Table.Td>
      <Table.Td data-label="Note" data-testid="note">
        <Text size="xs" lineClamp={2} c={note === null ? 'dimmed' : undefined}>
          {note ?? '—'}
        </Text>
      </Table.Td>
      <Table.Td>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Remove ${job.name ?? job.id} from the list`}
          onClick={() => forgetJob(job.id)}
        >
          ✕
        </ActionIcon>
      </Table.Td>
    </Table.Tr>
  );
}

/** The jobs this browser submitted or opened: what a spec-only service still lets us list. */
export function RecentJobs() {
  const jobs = recentJobsStore.use();
  const { pollSeconds } = useSettings();
  if (jobs.length === 0)
    return <Text c="dimmed">No jobs yet. Submitted and opened jobs appear here.</Text>;
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table data-cards striped highlightOnHover aria-label="Recent jobs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Job</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th visibleFrom="sm">Submitted or opened</Table.Th>
            <Table.Th>Reason / note</Table.Th>
            <Table.Th>
              <VisuallyHidden>Remove</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {jobs.map((job) => (
            <RecentJobRow key={job.id} job={job} pollMs={pollSeconds * 1000} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
