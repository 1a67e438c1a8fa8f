import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useCapabilities } from '../../api/capabilities';
import { useEngineHealth } from '../../api/engine-health';
import { useLiveUpdates } from '../../api/events';
import { sharesQuery } from '../../api/hosts';
import { useCan } from '../../api/permissions';
import { queueListQuery } from '../../api/queries';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LiveIndicator } from '../../components/LiveIndicator';
import { engineHealthWords } from '../../lib/engine-health-text';
import { QueueCard } from './QueueCard';
import type { QueueShareFigures } from './QueueShare';
import { TrendsSection } from './TrendsSection';

/** What to do on a service without the queue view: the spec's operations still work. */
function NoQueueView() {
  const canSubmit = useCan('submitJob').allowed;
  return (
    <Alert color="gray" title="This service offers no queue view" data-testid="no-queue-view">
      <Stack gap="xs">
        <Text size="sm">
          It speaks the job API but does not count jobs per queue. You can still submit a job, open
          any job by its id, and follow the jobs this browser knows.
        </Text>
        <Group>
          {canSubmit && (
            <Button component={Link} to="/submit">
              Submit a job
            </Button>
          )}
          <Button component={Link} to="/jobs" variant="default">
            Open a job by id
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** Each queue's share and its project's, by queue, where the service counts shares. */
function useQueueShares(enabled: boolean): Map<string, QueueShareFigures> {
  const shares = useQuery({ ...sharesQuery, enabled });
  return new Map(
    (shares.data?.projects ?? []).flatMap((project) =>
      project.queues.map((queue): [string, QueueShareFigures] => [queue.queue, { queue, project }]),
    ),
  );
}

function QueueGrid({
  events,
  trends,
  shares,
}: {
  events: boolean;
  trends: boolean;
  shares: boolean;
}) {
  const stream = useLiveUpdates(events);
  const queues = useQuery(queueListQuery(stream));
  const shareOf = useQueueShares(shares);
  if (queues.isPending) return <Loader aria-label="Loading queues" />;
  if (queues.isError && !queues.data)
    return <ErrorAlert error={queues.error} title="The queues could not be read" />;
  if (queues.data === null) return <NoQueueView />;
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Each count opens those jobs in the{' '}
          <Anchor component={Link} to="/jobs" inherit underline="always">
            jobs table
          </Anchor>
          .
        </Text>
        <LiveIndicator status={stream} />
      </Group>
      {queues.data!.length === 0 ? (
        <Text c="dimmed">This project declares no queue.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
          {queues.data!.map((summary) => (
            <QueueCard key={summary.queue} summary={summary} share={shareOf.get(summary.queue)} />
          ))}
        </SimpleGrid>
      )}
      {trends && <TrendsSection queues={queues.data!.map((summary) => summary.queue)} />}
    </Stack>
  );
}

/** The engine, as AWS Batch shows its compute environments: answering, or since when not. */
function EngineHealthLine({ enabled }: { enabled: boolean }) {
  const status = useEngineHealth(enabled);
  if (!status) return null;
  const { sentence } = engineHealthWords(status.health, status.engine);
  return status.health.reachable ? (
    <Text size="sm" c="dimmed" data-testid="engine-health">
      {sentence}
    </Text>
  ) : (
    <Alert color="red" title="The container engine is unreachable" data-testid="engine-health">
      {sentence}
    </Alert>
  );
}

/** The landing page: every queue of the project at a glance, when the service counts them. */
export default function OverviewPage() {
  const capabilities = useCapabilities();
  const canSubmit = useCan('submitJob').allowed;
  return (
    <Stack maw={1400}>
      <Group justify="space-between">
        <Title order={2}>Overview</Title>
        {canSubmit && (
          <Button component={Link} to="/submit">
            Submit a job
          </Button>
        )}
      </Group>
      <EngineHealthLine enabled={capabilities.data?.identity === true} />
      {capabilities.isPending ? (
        <Loader aria-label="Loading" />
      ) : capabilities.data?.queues ? (
        <QueueGrid
          events={capabilities.data.events}
          trends={capabilities.data.trends}
          shares={capabilities.data.shares}
        />
      ) : (
        <NoQueueView />
      )}
    </Stack>
  );
}
