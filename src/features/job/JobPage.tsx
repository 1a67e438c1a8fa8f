import { Alert, Anchor, Button, Loader, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/client';
import { jobDetailQuery } from '../../api/queries';
import { ErrorAlert } from '../../components/ErrorAlert';
import { recordObservedState, rememberOpened } from '../../lib/history';
import { useSettings } from '../../lib/settings';
import { FetchStatus } from './FetchStatus';
import { JobView } from './JobView';

function NotFound({ id, message }: { id: string; message: string }) {
  return (
    <Stack maw={640}>
      <Title order={2}>No such job</Title>
      <Alert color="gray" title={`Job ${id} was not found`} data-testid="job-not-found">
        {message} It may belong to another project, or the id may be mistyped.
      </Alert>
      <Anchor component={Link} to="/jobs">
        Back to jobs
      </Anchor>
    </Stack>
  );
}

export default function JobPage() {
  const id = useParams().id ?? '';
  const { pollSeconds } = useSettings();
  const query = useQuery(jobDetailQuery(id, pollSeconds * 1000));

  useEffect(() => rememberOpened(id), [id]);
  useEffect(() => {
    if (query.data) recordObservedState(id, query.data.name, query.data.state);
  }, [id, query.data]);

  if (query.isPending) return <Loader aria-label="Loading job" />;
  if (query.isError && !query.data) {
    if (isApiError(query.error) && query.error.status === 404)
      return <NotFound id={id} message={query.error.message} />;
    return (
      <Stack maw={640}>
        <ErrorAlert error={query.error} title="The job could not be loaded" />
        <Button variant="default" onClick={() => void query.refetch()} w="fit-content">
          Try again
        </Button>
      </Stack>
    );
  }
  return (
    <Stack maw={1100}>
      <JobView job={query.data!} />
      <FetchStatus
        updatedAt={query.dataUpdatedAt}
        error={query.error}
        offline={query.fetchStatus === 'paused'}
      />
    </Stack>
  );
}
