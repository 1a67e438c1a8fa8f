import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Stepper,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { isFinalState, type JobRecord } from '../../../contract';
import { isApiError } from '../../api/client';
import { jobDetailQuery } from '../../api/queries';
import { CopyTextButton } from '../../components/CopyTextButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { StateBadge, stateColor } from '../../components/StateBadge';
import { TimeText } from '../../components/TimeText';
import { recentJobsStore, recordObservedState, rememberOpened } from '../../lib/history';
import { useSettings } from '../../lib/settings';
import { formatDuration } from '../../lib/time';
import { useNow } from '../../lib/use-now';
import { CancelButton, CancellationStatus } from './CancelControl';
import { JobTimeline } from './JobTimeline';
import { activeStep, lifecycleSteps } from './lifecycle';
import { LogsPanel } from './LogsPanel';

function Countdown({ at }: { at: string }) {
  const now = useNow(true);
  const left = Date.parse(at) - now;
  return (
    <Text data-testid="schedule-countdown">
      {left > 0 ? (
        <>
          Starts in <strong>{formatDuration(left)}</strong>
        </>
      ) : (
        'Starting now'
      )}
    </Text>
  );
}

/** How fresh the page is, and why not when a refresh failed or the browser is offline. */
function FetchStatus({
  updatedAt,
  error,
  offline,
}: {
  updatedAt: number;
  error: unknown;
  offline: boolean;
}) {
  const now = useNow(true);
  const ago = Math.round((now - updatedAt) / 1000);
  let problem = '';
  // react-query pauses (does not fail) queries while the browser is offline: say so.
  if (offline) problem = ' — offline: the page refreshes again when the network is back.';
  else if (error) problem = ` — refresh failed: ${(error as Error).message} Retrying.`;
  return (
    <Text size="xs" c={problem ? 'orange' : 'dimmed'} data-testid="fetch-status" role="status">
      Last updated {ago} s ago{problem}
    </Text>
  );
}

function JobView({ job }: { job: JobRecord }) {
  const steps = lifecycleSteps(job);
  const canResubmit = recentJobsStore
    .use()
    .some((recent) => recent.id === job.id && recent.payload);
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={2}>{job.name}</Title>
            <StateBadge state={job.state} size="lg" />
          </Group>
          <Group gap={6}>
            <Code>{job.id}</Code>
            <CopyTextButton value={job.id} label="Copy id" size="compact-xs" variant="subtle" />
          </Group>
        </Stack>
        <Group>
          {canResubmit && (
            <Button
              variant="default"
              component={Link}
              to={`/submit?from=${encodeURIComponent(job.id)}`}
            >
              Submit again
            </Button>
          )}
          <CancelButton job={job} />
        </Group>
      </Group>

      <CancellationStatus job={job} />
      {job.system_note && (
        <Alert
          color={stateColor(job.state)}
          title="Note from the service"
          data-testid="system-note"
        >
          {job.system_note}
        </Alert>
      )}
      {job.state === 'pending' && job.schedule_at && <Countdown at={job.schedule_at} />}

      <Paper withBorder p="md">
        <Stepper active={activeStep(job, steps)} size="sm" allowNextStepsSelect={false}>
          {steps.map((step) => (
            <Stepper.Step
              key={step.state}
              label={step.state === 'finished' && isFinalState(job.state) ? job.state : step.label}
              color={
                step.state === 'finished' && isFinalState(job.state)
                  ? stateColor(job.state)
                  : undefined
              }
            />
          ))}
        </Stepper>
      </Paper>

      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {(
          [
            ['Created', job.created_at],
            ['Updated', job.updated_at],
            ['Scheduled', job.schedule_at],
          ] as const
        ).map(([label, iso]) => (
          <Stack gap={2} key={label}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <TimeText iso={iso} />
          </Stack>
        ))}
      </SimpleGrid>

      <Tabs defaultValue="timeline">
        <Tabs.List>
          <Tabs.Tab value="timeline">Timeline</Tabs.Tab>
          <Tabs.Tab value="logs">Logs</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="timeline" pt="md">
          <JobTimeline job={job} />
        </Tabs.Panel>
        <Tabs.Panel value="logs" pt="md">
          <LogsPanel job={job} />
        </Tabs.Panel>
      </Tabs>
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
    if (isApiError(query.error) && query.error.status === 404) {
      return (
        <Stack maw={640}>
          <Title order={2}>No such job</Title>
          <Alert color="gray" title={`Job ${id} was not found`} data-testid="job-not-found">
            {query.error.message} It may belong to another project, or the id may be mistyped.
          </Alert>
          <Anchor component={Link} to="/jobs">
            Back to jobs
          </Anchor>
        </Stack>
      );
    }
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
