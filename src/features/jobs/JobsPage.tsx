import { Button, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useCapabilities } from '../../api/capabilities';
import { useCan } from '../../api/permissions';
import { OpenByIdForm } from './OpenByIdForm';
import { ProjectJobs } from './ProjectJobs';
import { RecentJobs } from './RecentJobs';

type View = 'project' | 'recent';

/** The failures of the table's filters: its URL's, less what only the table uses. */
function failuresPath(search: URLSearchParams): string {
  const filters = new URLSearchParams(search);
  for (const name of ['view', 'cursor', 'sort']) filters.delete(name);
  return `/failures?${filters.toString()}`;
}

export default function JobsPage() {
  const capabilities = useCapabilities();
  const [search, setSearch] = useSearchParams();
  const canSubmit = useCan('submitJob').allowed;
  const listed = capabilities.data?.jobList ?? false;
  const view: View = search.get('view') === 'recent' || !listed ? 'recent' : 'project';
  return (
    <Stack maw={1200}>
      <Group justify="space-between">
        <Title order={2}>Jobs</Title>
        {canSubmit && (
          <Group gap="xs">
            {listed && (
              <Button component={Link} to={failuresPath(search)} variant="default">
                Failures
              </Button>
            )}
            <Button component={Link} to="/submit">
              Submit a job
            </Button>
          </Group>
        )}
      </Group>
      <OpenByIdForm />
      {capabilities.isPending ? (
        <Loader aria-label="Loading" />
      ) : (
        // Only the shown tab is mounted: hidden rows do not poll.
        <Tabs
          value={view}
          keepMounted={false}
          onChange={(next) => setSearch(next === 'recent' ? { view: 'recent' } : {})}
        >
          <Tabs.List>
            {listed && <Tabs.Tab value="project">All jobs of the project</Tabs.Tab>}
            <Tabs.Tab value="recent">Recent in this browser</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="project" pt="md">
            <ProjectJobs />
          </Tabs.Panel>
          <Tabs.Panel value="recent" pt="md">
            {!listed && (
              <Text c="dimmed" mb="sm" data-testid="no-job-list">
                This service does not list jobs: below are the jobs this browser submitted or
                opened; open any other by its id.
              </Text>
            )}
            <RecentJobs />
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}
