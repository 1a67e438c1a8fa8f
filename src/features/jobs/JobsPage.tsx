import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { isFinalState } from '../../../contract';
import { jobDetailQuery } from '../../api/queries';
import { StateBadge } from '../../components/StateBadge';
import { TimeText } from '../../components/TimeText';
import { forgetJob, recentJobsStore, recordObservedState, type RecentJob } from '../../lib/history';
import { useSettings } from '../../lib/settings';
import { ProjectJobs } from './ProjectJobs';

/** A row polls its job only while it is not known to be final. */
function RecentJobRow({ job, pollMs }: { job: RecentJob; pollMs: number }) {
  const live = !job.lastState || !isFinalState(job.lastState);
  const query = useQuery({ ...jobDetailQuery(job.id, pollMs), enabled: live });
  useEffect(() => {
    if (query.data) recordObservedState(job.id, query.data.name, query.data.state);
  }, [job.id, query.data]);
  const notFound = query.error && 'status' in query.error && query.error.status === 404;
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={`/jobs/${encodeURIComponent(job.id)}`}>
          {job.name ?? job.id.slice(0, 8)}
        </Anchor>
        <Text size="xs" c="dimmed" ff="monospace">
          {job.id}
        </Text>
      </Table.Td>
      <Table.Td>
        {notFound ? (
          <Text c="dimmed">not found</Text>
        ) : (
          <StateBadge state={job.lastState} size="sm" />
        )}
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <TimeText iso={job.submittedAt} />
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

export default function JobsPage() {
  const jobs = recentJobsStore.use();
  const { pollSeconds } = useSettings();
  const navigate = useNavigate();
  const [id, setId] = useState('');
  const open = (event: FormEvent) => {
    event.preventDefault();
    if (id.trim()) void navigate(`/jobs/${encodeURIComponent(id.trim())}`);
  };
  return (
    <Stack maw={1000}>
      <Group justify="space-between">
        <Title order={2}>Jobs</Title>
        <Button component={Link} to="/submit">
          Submit a job
        </Button>
      </Group>
      <Paper withBorder p="md">
        <form onSubmit={open}>
          <Group align="flex-end">
            <TextInput
              label="Open a job by id"
              placeholder="3f0c…"
              value={id}
              onChange={(event) => setId(event.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button type="submit" variant="default" disabled={!id.trim()}>
              Open
            </Button>
          </Group>
        </form>
      </Paper>
      <Tabs defaultValue="recent">
        <Tabs.List>
          <Tabs.Tab value="recent">Recent in this browser</Tabs.Tab>
          <Tabs.Tab value="project">All jobs of the project</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="project" pt="md">
          <ProjectJobs pollMs={pollSeconds * 1000} />
        </Tabs.Panel>
        <Tabs.Panel value="recent" pt="md">
          {jobs.length === 0 ? (
            <Text c="dimmed">No jobs yet. Submitted and opened jobs appear here.</Text>
          ) : (
            <Table.ScrollContainer minWidth={360}>
              <Table striped highlightOnHover aria-label="Recent jobs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Job</Table.Th>
                    <Table.Th>State</Table.Th>
                    <Table.Th visibleFrom="sm">Submitted or opened</Table.Th>
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
          )}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
