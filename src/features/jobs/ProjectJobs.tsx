import { Anchor, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { JOB_STATES, type JobState } from '../../../contract';
import { jobListQuery } from '../../api/queries';
import { ErrorAlert } from '../../components/ErrorAlert';
import { StateBadge } from '../../components/StateBadge';
import { TimeText } from '../../components/TimeText';

/** Every job of the key's project, when the service offers the list (an extension of the spec). */
export function ProjectJobs({ pollMs }: { pollMs: number }) {
  const [state, setState] = useState<JobState | undefined>();
  const query = useInfiniteQuery(jobListQuery(state, pollMs));
  if (query.isPending) return <Text c="dimmed">Loading the project&apos;s jobs…</Text>;
  if (query.isError)
    return <ErrorAlert error={query.error} title="The project's jobs could not be listed" />;
  if (query.data.pages[0] === null) {
    return <Text c="dimmed">This service does not list jobs; open one by id above.</Text>;
  }
  const jobs = query.data.pages.flatMap((page) => page?.items ?? []);
  return (
    <Stack>
      <Select
        label="State"
        placeholder="any state"
        clearable
        w={220}
        data={[...JOB_STATES]}
        value={state ?? null}
        onChange={(value) => setState((value as JobState | null) ?? undefined)}
      />
      {jobs.length === 0 ? (
        <Text c="dimmed">No jobs{state ? ` in state ${state}` : ''}.</Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table striped highlightOnHover aria-label="Project jobs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Job</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th visibleFrom="sm">Queue</Table.Th>
                <Table.Th visibleFrom="sm">Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {jobs.map((job) => (
                <Table.Tr key={job.id}>
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
                  <Table.Td visibleFrom="sm">{job.job_queue}</Table.Td>
                  <Table.Td visibleFrom="sm">
                    <TimeText iso={job.created_at} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {query.hasNextPage && (
        <Group>
          <Button
            variant="default"
            loading={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
